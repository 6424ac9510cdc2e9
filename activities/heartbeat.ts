// Long activities heartbeat, so when a worker dies mid-call Temporal notices within the heartbeat timeout (set in
// workflows/activity-stubs.ts) and retries on another worker, instead of waiting out the whole start-to-close.
import { Context } from '@temporalio/activity';

const EVERY_MS = 2_000;

/** Runs `work`, heartbeating meanwhile; outside an activity (unit tests, benchmarks) it just runs it. */
export async function whileHeartbeating<T>(work: () => Promise<T>): Promise<T> {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return work();
  }
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
