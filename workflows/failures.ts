// How a final activity failure becomes something the conversation can show: a step failure or a tool error.
// The workflow never fails because an activity did; the user or the LLM reads why. A cancellation is not a
// failure: it goes on to the workflow, which stops the turn.
import {
  ActivityFailure,
  ApplicationFailure,
  CancelledFailure,
  TemporalFailure,
  TimeoutFailure,
} from '@temporalio/common';
import type { StepFailure } from '../core/effects';
import { mayHaveRun } from '../core/failures';
import type { ToolOutcome, ToolSpec } from '../core/types';

export async function failSoft<T>(run: () => Promise<T>): Promise<T | StepFailure> {
  try {
    return await run();
  } catch (err) {
    if (isCancelled(err)) throw err;
    return { failed: reason(err) };
  }
}

/**
 * A tool activity that failed for good. A non-idempotent MCP or HTTP API call was given one attempt: it may have run. A native
 * tool that changes state and timed out (its worker died, say, while the call was being cancelled, so no retry
 * asked the effect ledger) may have committed before its worker went quiet.
 */
export function toolError(err: unknown, spec: ToolSpec): ToolOutcome {
  if (isCancelled(err)) throw err;
  if (spec.mcp && !spec.mcp.idempotent) return mayHaveRun(spec.mcp.server, spec.mcp.tool, reason(err));
  if (spec.http && !spec.http.idempotent) return mayHaveRun(spec.http.api, spec.http.operation, reason(err));
  if (!spec.mcp && !spec.readOnly && timedOut(err)) {
    return {
      status: 'tool_error',
      error: `${spec.name} did not report back (${reason(err)}); it may or may not have run. Check before trying again.`,
    };
  }
  return { status: 'tool_error', error: reason(err) };
}

function timedOut(err: unknown): boolean {
  for (let e: unknown = err; e instanceof TemporalFailure; e = e.cause) if (e instanceof TimeoutFailure) return true;
  return false;
}

export function isCancelled(err: unknown): boolean {
  return err instanceof CancelledFailure || (err instanceof ActivityFailure && err.cause instanceof CancelledFailure);
}

/** The innermost message of an activity failure, which names the real cause (e.g. the missing setting); for a call
 * given up after retries ("not enough time to schedule next retry…"), the last attempt's failure. */
export function reason(err: unknown): string {
  let e: unknown = err;
  while (e instanceof TemporalFailure && e.cause) e = e.cause;
  if (e instanceof ApplicationFailure || e instanceof Error) return e.message;
  return String(e);
}
