// The one way a tool call the model made goes on the worker, whatever runs it (a native tool, an MCP server, an HTTP
// API, a made tool in the sandbox): telemetry around the whole → the beforeToolCall hooks (which may rewrite the
// arguments or block the call) → the kind's own run → the afterToolCall hooks (which may redact the result or withhold
// it) → the claim check (a result too big for history kept whole, for the conversation's owner) → the kind's settling
// (a native tool's effect recorded) → the outcome with the hooks' decisions. A kind brings its run alone; the order is
// written here once, so no kind can skip a step or take them in another order.
import type { HookedOutcome } from '../core/hooks';
import type { ToolOutcome } from '../core/types';
import { observeToolCall } from './call-telemetry';
import { keepOutcome, type ClaimCheck } from './claim-check';
import type { HookRunner } from './hooks/hook-runner';
import { afterToolCall, beforeToolCall, withDecisions } from './hooks/tool-hooks';
import { DEFAULT_LIMITS, type Limits } from './limits';

export interface ToolCall {
  /** The tool as the model called it: what the hooks see and what a result kept whole is named after. */
  tool: string;
  args: Record<string, unknown>;
  /** The calling conversation's goal (a hook may decide by it). */
  goalId?: string;
  /** Whose conversation calls: a result kept whole is theirs. Absent, the claim check asks the conversation. */
  owner?: string;
  /** What telemetry names: the tool within its endpoint (an MCP tool, an API operation) and the endpoint. */
  observed?: { tool: string; endpoint?: string };
}

/**
 * What a kind's run gives: a fresh outcome, which the afterToolCall hooks and the claim check see next (and then
 * `settle`, with the outcome as kept); or an answer final as it is, which they do not (a recorded effect, arguments
 * refused before the tool ran, an operation no longer offered).
 */
export type Ran = { outcome: ToolOutcome; settle?: (kept: ToolOutcome) => void } | { final: HookedOutcome };

export interface ToolPipelineDeps {
  /** The hooks around tool calls (HOOKS: beforeToolCall, afterToolCall). */
  hooks?: HookRunner;
  /** The blob store results over CLAIM_CHECK_CHARS are kept in; absent, they are capped (MAX_TOOL_RESULT_CHARS). */
  check?: ClaimCheck;
  limits?: Limits;
}

export type CallTool = (call: ToolCall, run: (args: Record<string, unknown>) => Promise<Ran>) => Promise<HookedOutcome>;

export function toolPipeline({ hooks, check, limits = DEFAULT_LIMITS }: ToolPipelineDeps): CallTool {
  return (call, run) => {
    const observed = call.observed ?? { tool: call.tool };
    return observeToolCall(observed.tool, observed.endpoint, async () => {
      const scope = { tool: call.tool, ...(call.goalId ? { goalId: call.goalId } : {}) };
      const before = await beforeToolCall(hooks, scope, call.args);
      if (before.stopped) return before.stopped;
      const ran = await run(before.args);
      if ('final' in ran) return withDecisions(ran.final, [...before.decisions, ...(ran.final.hooks ?? [])]);
      // Redacted (or withheld) before anything keeps it: the blob store, a native tool's effect ledger, history.
      const after = await afterToolCall(hooks, scope, before.args, ran.outcome);
      const kept = await keepOutcome(after.outcome, {
        check,
        maxChars: limits.maxToolResultChars,
        tool: call.tool,
        ...(call.owner ? { owner: call.owner } : {}),
      });
      ran.settle?.(kept);
      return withDecisions(kept, [...before.decisions, ...after.decisions]);
    });
  };
}
