// One model call's time, within MODEL_TIMEOUT and what MODEL_GIVE_UP (the activity's schedule-to-close) leaves: each
// attempt ends in our words, never in Temporal's, and the last one that can be made says why we gave up.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { modelRetryDelayMs } from '../../core/model-retry';

/** Time kept back from MODEL_GIVE_UP for a failure's report to reach the server and a retry to be dispatched. */
const RETRY_MARGIN_MS = 2_000;
/** The shortest attempt worth making: a provider's error comes back in well under this. */
const MIN_ATTEMPT_MS = 3_000;

/**
 * MODEL_TIMEOUT for one call, held until the call ends. Not AbortSignal.timeout: its timer holds the signal weakly and
 * AbortSignal.any holds its sources weakly, so a timeout signal referenced by nothing else can be collected before it
 * fires, and a provider that never answers is then waited for until the activity's own timeout (a test saw it hang).
 */
export function callTimeout(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  );
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** How long this attempt may take: MODEL_TIMEOUT, within what MODEL_GIVE_UP leaves (less a margin for the report). */
export function attemptTimeoutMs(timeoutMs: number): number {
  const left = budgetLeftMs();
  return left === null ? timeoutMs : Math.max(1_000, Math.min(timeoutMs, left - RETRY_MARGIN_MS));
}

/** What is left of MODEL_GIVE_UP (the activity's schedule-to-close), or null outside an activity or without one. */
function budgetLeftMs(): number | null {
  let info;
  try {
    info = Context.current().info;
  } catch {
    return null; // not in an activity
  }
  if (!info.scheduleToCloseTimeoutMs) return null;
  return info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs - Date.now();
}

/**
 * A failed attempt, final when another could not get MIN_ATTEMPT_MS after its backoff within MODEL_GIVE_UP: then we
 * give up, naming the cause and the attempts, rather than leave Temporal to stop the retries in its own words. An
 * attempt that fits gets what is left (attemptTimeoutMs), so a short MODEL_GIVE_UP still retries fast failures.
 */
export function finalWhenOutOfTime(failure: ApplicationFailure, giveUpSetting = 'MODEL_GIVE_UP'): ApplicationFailure {
  const left = budgetLeftMs();
  if (failure.nonRetryable || left === null) return failure;
  const { attempt } = Context.current().info;
  // With a margin for the report reaching the server and the retry being dispatched: on a loaded machine that took
  // seconds, and the server then gave up with its own message, losing the cause.
  if (left - modelRetryDelayMs(attempt) - RETRY_MARGIN_MS >= MIN_ATTEMPT_MS) return failure;
  return ApplicationFailure.create({
    message: `${failure.message} Gave up after ${attempt} attempt${attempt === 1 ? '' : 's'} (${giveUpSetting}).`,
    type: failure.type ?? undefined,
    nonRetryable: true,
  });
}
