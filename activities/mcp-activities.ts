// Endpoints on the activity side: MCP calls over the worker's session pool, HTTP API calls (apis/), and catalog
// descriptions for clients.
import { ApplicationFailure } from '@temporalio/activity';
import { callApi, RetryableHttpError } from '../apis/http-call';
import { idempotencyKey } from '../tools/idempotency';
import type { McpDiscovery } from '../mcp/catalog';
import { callMcpTool } from '../mcp/call';
import { whileHeartbeating } from './heartbeat';
import { DEFAULT_LIMITS, type Limits } from './limits';
import { keepOutcome, type ClaimCheck } from './claim-check';
import type { ToolOutcome } from '../core/types';
import type { McpPool } from '../mcp/pool';
import type { McpActivities } from '../core/activity-types';
import { observeToolCall } from './call-telemetry';
import { EndpointFeaturesReader } from '../mcp/endpoint-features';
import { capContent } from '../core/tool-content';
import { conversationHost, type ToolQuestionDeps } from './tool-questions';
import type { HookRunner } from './hooks/hook-runner';
import { afterToolCall, beforeToolCall, withDecisions } from './hooks/tool-hooks';

export interface McpDeps {
  discovery: McpDiscovery;
  pool: McpPool;
  /** What answers a server's questions and sampling requests during a call (tool-questions.ts). */
  questions?: ToolQuestionDeps;
  /** The hooks around tool calls (HOOKS: beforeToolCall, afterToolCall). */
  hooks?: HookRunner;
}

export function createMcpActivities(
  { discovery, pool, questions = {}, hooks }: McpDeps,
  limits: Limits = DEFAULT_LIMITS,
  check?: ClaimCheck,
): McpActivities {
  const keep = (outcome: ToolOutcome, tool: string, owner?: string) =>
    keepOutcome(outcome, { check, maxChars: limits.maxToolResultChars, tool, ...(owner ? { owner } : {}) });
  const features = new EndpointFeaturesReader(discovery, pool);
  return {
    callMcpTool: (given) =>
      observeToolCall(given.ref.tool, given.ref.server, async () => {
        const scope = { tool: given.name, goalId: given.goalId };
        const before = await beforeToolCall(hooks, scope, given.args);
        if (before.stopped) return before.stopped;
        const input = { ...given, args: before.args };
        const endpoint = (await discovery.current()).definitions.get(input.name)?.endpoint;
        const host = conversationHost(questions, {
          tool: input.name,
          server: input.ref.server,
          sampling: endpoint?.entry.sampling ?? 'ask',
          goalId: input.goalId,
          overBudget: input.overBudget,
          userConversation: input.userConversation,
        });
        const outcome = await whileHeartbeating((signal) => callMcpTool(discovery, pool, input, signal, host));
        const spent = host.spent();
        // Redacted (or withheld) before the blob store or history keeps it.
        const after = await afterToolCall(hooks, scope, input.args, outcome);
        const kept = await keep(after.outcome, input.name, input.owner);
        return { ...withDecisions(kept, [...before.decisions, ...after.decisions]), ...(spent ? { spent } : {}) };
      }),
    callHttpTool: ({ name, ref, args: given }) =>
      observeToolCall(ref.operation, ref.api, async () => {
        const before = await beforeToolCall(hooks, { tool: name }, given);
        if (before.stopped) return before.stopped;
        const args = before.args;
        // The catalog the turn saw: a call never waits on a discovery.
        const call = (await discovery.current()).operations.get(name);
        if (!call || call.operation.id !== ref.operation)
          return { status: 'tool_error', error: `The HTTP API "${ref.api}" no longer offers "${ref.operation}".` };
        try {
          const outcome = await whileHeartbeating((signal) =>
            callApi(call, args, { idempotencyKey: idempotencyKey(name), signal }),
          );
          const after = await afterToolCall(hooks, { tool: name }, args, outcome);
          return withDecisions(await keep(after.outcome, name), [...before.decisions, ...after.decisions]);
        } catch (err) {
          // Worth another attempt (an idempotent call's 5xx or timeout): Temporal retries with backoff.
          if (err instanceof RetryableHttpError) throw ApplicationFailure.retryable(err.message, 'HttpRetryable');
          throw err;
        }
      }),
    describeEndpointFeatures: ({ endpoint, owner }) => features.describe(endpoint, owner),
    readResource: async (ref) => {
      const read = await features.read(ref);
      return { ...read, contents: capContent(read.contents, limits.maxToolResultChars) as typeof read.contents };
    },
    getPrompt: (ref) => features.prompt(ref),
    async describeCatalog() {
      const { version, endpoints, registryError, tools } = await discovery.catalog();
      return { catalog: { version, endpoints, registryError }, tools };
    },
  };
}
