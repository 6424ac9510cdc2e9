// Riding out a Temporal server that went away (killed, restarted, a network blip). The SDK retries each call for
// about 20 s; a restart can take longer, and a turn in flight goes on once the server is back, so calls that are
// safe to repeat are repeated — for a bounded time, and telling the user why they wait.
import { isGrpcServiceError } from '@temporalio/client';
import { UserError } from '../core/user-error';

/** gRPC codes of a server that cannot be reached, or did not answer in time: the call may be sent again. */
const UNAVAILABLE = 14;
const DEADLINE_EXCEEDED = 4;

/**
 * Channel settings for a client that should notice a server back within seconds: grpc-js otherwise spaces its
 * reconnection attempts up to 120 s apart, so after a 25 s outage the first call got through ~17 s after the
 * server was back (and later still after longer outages). One connection attempt every 2 s while it is down is cheap.
 */
export const RECONNECT_QUICKLY = { 'grpc.initial_reconnect_backoff_ms': 500, 'grpc.max_reconnect_backoff_ms': 2_000 };

/** Pause between repeats: the SDK's own retries already back off, this only keeps a failing loop from spinning. */
const REPEAT_PAUSE_MS = 1_000;

export interface ServerWait {
  /** How long the server may stay unreachable (after the SDK's own retries) before the call fails for good. */
  maxWaitMs: number;
  /** Told once per outage, in a line for the user. */
  onWait?: (message: string) => void;
}

/** Whether `err` says the server could not be reached, whatever the SDK wrapped it in. */
function isServerUnreachable(err: unknown): boolean {
  const grpc = isGrpcServiceError(err) ? err : (err as { cause?: unknown } | undefined)?.cause;
  return isGrpcServiceError(grpc) && (grpc.code === UNAVAILABLE || grpc.code === DEADLINE_EXCEEDED);
}

/** Runs `call` until the server answers it, repeating it through an outage. `call` must be safe to repeat. */
export async function untilReachable<T>(call: () => Promise<T>, wait: ServerWait): Promise<T> {
  let since: number | undefined;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!isServerUnreachable(err)) throw err;
      if (since === undefined) {
        since = Date.now();
        wait.onWait?.(
          `(the Temporal server is not reachable; waiting up to ${Math.round(wait.maxWaitMs / 1000)} s for it…)`,
        );
      } else if (Date.now() - since >= wait.maxWaitMs) {
        // The conversation is safe on the server: what was sent may still be answered once it is back.
        throw new UserError(
          `The Temporal server has not been reachable for over ${Math.round(wait.maxWaitMs / 1000)} s; once it is back, agent status shows where the conversation is.`,
          'unavailable',
        );
      }
      await new Promise((r) => setTimeout(r, REPEAT_PAUSE_MS));
    }
  }
}
