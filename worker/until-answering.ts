// A Temporal server's port opens a few seconds before its frontend serves ("Frontend is not healthy yet"): a dev
// server we start is ready once it answers a call (spawnDevServer waits with this).
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';

/**
 * Resolves once the server at `address` answers a call (getSystemInfo); throws after `timeoutMs`, or once `signal` is
 * aborted (its caller no longer waits: the server it started has exited).
 */
export async function untilAnswering(address: string, timeoutMs = 30_000, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    // Its own subchannel: grpc-js shares them between connections, and one left backing off would answer late.
    const connection = Connection.lazy({
      address,
      connectTimeout: '2 seconds',
      channelArgs: { 'grpc.use_local_subchannel_pool': 1 },
    });
    // ensureConnected asks getSystemInfo; closed whatever it says, so no channel goes on reconnecting.
    const answered = await connection.ensureConnected().then(
      () => true,
      () => false,
    );
    await connection.close();
    if (answered) return;
    if (Date.now() > deadline)
      throw new Error(`the Temporal dev server at ${address} did not answer within ${timeoutMs / 1000} s`);
    await sleep(200, undefined, { signal });
  }
}
