// Failures in the words the user and the LLM read, shared by the workflow (a tool activity that failed for good) and
// the MCP call (a call lost after it was sent): one wording, wherever the loss is found.
import type { ToolOutcome } from './types';

/** The truthful answer for a call that was sent and then lost: never re-sent, so the user and the LLM must check. */
export function mayHaveRun(server: string, tool: string, why: string): ToolOutcome {
  return {
    status: 'tool_error',
    error: `The call to ${server}/${tool} was sent, then lost (${why}); it may or may not have run, so it was not retried. Check before trying again.`,
  };
}
