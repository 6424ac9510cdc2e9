// Long activities heartbeat, so when a worker dies mid-call Temporal notices within the heartbeat timeout (set in
// workflows/activity-stubs.ts) and retries on another worker, instead of waiting out the whole start-to-close.
// Heartbeats are also how a cancel (the user stopping the turn) reaches the activity: `work` gets the activity's
// AbortSignal to hand to the model call, the tool or the MCP request.
import { CancelledFailure, Context } from '@temporalio/activity';

const EVERY_MS = 2_000;
const NEVER = new AbortController().signal;

/** Runs `work`, heartbeating meanwhile; outside an activity (unit tests, benchmarks) it just runs it. */
export async function whileHeartbeating<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return work(NEVER);
  }
  // No beat at the start: the heartbeat timeout already counts from the start, and a beat sent then delays the
  // completion of a call that ends quickly by about one server round trip (bench/README.md: "Round trips per step").
  // A local activity has no heartbeat: its workflow task's timeout notices a dead worker instead.
  const timer = ctx.info.isLocal ? undefined : setInterval(() => ctx.heartbeat(), EVERY_MS);
  try {
    return await work(ctx.cancellationSignal);
  } catch (err) {
    // Work stopped by the cancel may wrap the abort in its own error (the model provider's, say): Temporal must
    // hear "cancelled", or the workflow would read a failure. Any other error stays what it is.
    if (ctx.cancellationDetails?.cancelRequested && causedBy(err, ctx.cancellationSignal.reason)) {
      throw new CancelledFailure('Cancelled by the user.', [], err as Error);
    }
    throw err;
  } finally {
    clearInterval(timer);
  }
}

/** Whether `err` is the abort (or an AbortError), or has it among its causes. */
function causedBy(err: unknown, abortReason: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 10; e = (e as Error).cause, depth++) {
    if (e === abortReason || (e as Error).name === 'AbortError') return true;
  }
  return false;
}
