// Every activity timeout and retry policy in one place. Temporal owns retries; provider SDKs run with theirs off.
import { proxyActivities, proxyLocalActivities, type ActivityOptions } from '@temporalio/workflow';
import { FailureTypes, type ConfigActivities, type LlmActivities, type McpActivities, type ToolActivity } from './activity-types';

export const config = proxyActivities<ConfigActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.UnknownGoal, FailureTypes.Misconfigured] },
});

/** The per-turn tool refresh: usually a file stat and a cached catalog, so a local activity (no extra
 * workflow task round trip); a cold discovery still fits its timeout. */
export const localConfig = proxyLocalActivities<ConfigActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.UnknownGoal, FailureTypes.Misconfigured] },
});

export const llm = proxyActivities<LlmActivities>({
  startToCloseTimeout: '2 minutes',
  // Transient provider errors retry with backoff, but a turn never hangs on a dead provider for long.
  scheduleToCloseTimeout: '5 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: [FailureTypes.LlmAuth, FailureTypes.LlmMisconfigured, FailureTypes.LlmBadRequest],
  },
});

export const NATIVE_TOOL_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '3 minutes',
  retry: {
    initialInterval: '1 second',
    maximumAttempts: 3,
    nonRetryableErrorTypes: [FailureTypes.UnknownTool, FailureTypes.ToolInputInvalid],
  },
};

/** Indexed by tool name: `nativeTools[name](args)` schedules an activity of that type. */
export const nativeTools = proxyActivities<Record<string, ToolActivity>>(NATIVE_TOOL_OPTIONS);

/** MCP calls: per-call timeouts come from the endpoint (see mcpCallOptions). Connection failures retry. */
export const mcp = proxyActivities<McpActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '20 seconds', maximumAttempts: 4, nonRetryableErrorTypes: [FailureTypes.UnknownGoal] },
});

/** A call's options: the endpoint's timeout bounds each attempt, three attempts' worth bounds the whole. */
export function mcpCallOptions(server: string, tool: string, timeoutMs: number) {
  return {
    summary: `${server}/${tool}`,
    startToCloseTimeout: timeoutMs + 5_000,
    scheduleToCloseTimeout: 3 * (timeoutMs + 5_000) + 30_000,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '20 seconds', maximumAttempts: 4 },
  };
}
