// Failures in the words the user and the LLM read, shared by the workflow (a tool activity that failed for good) and
// the MCP call (a call lost after it was sent), a call cancelled by the user: one wording, wherever it is found.
import { BUILTIN_RUN_OF } from './builtin-runs';
import type { ToolOutcome, ToolSpec } from './types';

/** The truthful answer for a call that was sent and then lost: never re-sent, so the user and the LLM must check. */
export function mayHaveRun(server: string, tool: string, why: string): ToolOutcome {
  return {
    status: 'tool_error',
    error: `The call to ${server}/${tool} was sent, then lost (${why}); it may or may not have run, so it was not retried. Check before trying again.`,
  };
}

/** What a cancelled call did. A native tool stopped by its signal did not complete (its result and effect are
 * recorded only when it returns; a tool honouring ctx.signal stops before it commits); an MCP server may have acted
 * before it heard of the cancel. */
export function cancelledCall(spec: ToolSpec): string {
  // A builtin run says what its cancel leaves (CreateAgent: the agent may or may not have been saved).
  const own = spec.kind === 'builtin' ? BUILTIN_RUN_OF[spec.name]?.cancelled : undefined;
  if (own) return own;
  if (spec.readOnly) return 'Cancelled by the user before it finished.';
  const remote = spec.mcp
    ? `${spec.mcp.server}/${spec.mcp.tool}`
    : spec.http
      ? `${spec.http.api}/${spec.http.operation}`
      : null;
  if (remote)
    return `Cancelled by the user while ${remote} ran; it may or may not have acted. Check before trying again.`;
  return 'Cancelled by the user before it finished; it did not complete.';
}
