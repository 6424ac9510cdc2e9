// A tool call between its hooks, for every activity that runs a tool the model called (native, MCP, HTTP API, made):
// before it, the arguments may be rewritten, or the call blocked (the model reads a tool error, and the tool never
// runs); after it, the result may be rewritten (redacted before the model, the transcript and the blob store see
// it) or withheld. The decisions travel with the outcome, for the workflow to record.
import { hookToolError, type HookDecision, type HookedOutcome } from '../../core/hooks';
import type { ToolOutcome } from '../../core/types';
import type { HookRunner } from './hook-runner';

export interface ToolScope {
  tool: string;
  goalId?: string;
}

/** The arguments to run the call with, or the outcome the model reads instead when a hook stopped it. */
export async function beforeToolCall(
  hooks: HookRunner | undefined,
  scope: ToolScope,
  args: Record<string, unknown>,
): Promise<{ args: Record<string, unknown>; decisions: HookDecision[]; stopped?: HookedOutcome }> {
  if (!hooks?.has('beforeToolCall')) return { args, decisions: [] };
  const run = await hooks.run('beforeToolCall', { tool: scope.tool, args }, scope);
  if (run.stopped) {
    const stopped = withDecisions({ status: 'tool_error', error: hookToolError(run.stopped) }, run.decisions);
    return { args, decisions: run.decisions, stopped };
  }
  return { args: run.input.args, decisions: run.decisions };
}

/** The outcome as the model may see it: rewritten by the hooks, or a tool error when one withheld it. */
export async function afterToolCall(
  hooks: HookRunner | undefined,
  scope: ToolScope,
  args: Record<string, unknown>,
  outcome: ToolOutcome,
): Promise<{ outcome: ToolOutcome; decisions: HookDecision[] }> {
  if (!hooks?.has('afterToolCall')) return { outcome, decisions: [] };
  const run = await hooks.run('afterToolCall', { tool: scope.tool, args, outcome }, scope);
  if (run.stopped)
    return { outcome: { status: 'tool_error', error: hookToolError(run.stopped) }, decisions: run.decisions };
  return { outcome: run.input.outcome, decisions: run.decisions };
}

export function withDecisions(outcome: ToolOutcome, decisions: HookDecision[]): HookedOutcome {
  return decisions.length ? { ...outcome, hooks: decisions } : outcome;
}
