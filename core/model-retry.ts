// How model calls are retried, named once: the workflow's activity options use it, and the model activity uses it
// to see when the next attempt could no longer finish within MODEL_GIVE_UP, so it gives up itself, naming the
// cause, instead of leaving Temporal to stop the retries with a message that names none.
export const MODEL_RETRY = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 30_000 } as const;

/** The wait before attempt `attempt + 1`. */
export function modelRetryDelayMs(attempt: number): number {
  return Math.min(
    MODEL_RETRY.initialIntervalMs * MODEL_RETRY.backoffCoefficient ** (attempt - 1),
    MODEL_RETRY.maximumIntervalMs,
  );
}
