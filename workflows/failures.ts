// How a final activity failure becomes something the conversation can show: a step failure or a tool error.
// The workflow never fails because an activity did; the user or the LLM reads why.
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { StepFailure } from './effects';
import type { ToolOutcome } from './types';

export async function failSoft<T>(run: () => Promise<T>): Promise<T | StepFailure> {
  try {
    return await run();
  } catch (err) {
    return { failed: reason(err) };
  }
}

export function toolError(err: unknown): ToolOutcome {
  return { status: 'tool_error', error: reason(err) };
}

/** The innermost message of an activity failure, which names the real cause (e.g. the missing setting). */
function reason(err: unknown): string {
  let e: unknown = err;
  while (e instanceof ActivityFailure && e.cause) e = e.cause;
  if (e instanceof ApplicationFailure || e instanceof Error) return e.message;
  return String(e);
}
