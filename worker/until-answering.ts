// A Temporal server's port opens a few seconds before its frontend serves ("Frontend is not healthy yet"): callers
// that start one wait for a real answer before they connect.
import { Connection } from '@temporalio/client';

/**
 * Resolves once the server at `address` answers a call (getSystemInfo); throws after `timeoutMs`, or once `signal` is
 * aborted (its caller no longer waits: the server it started has exited).
 */
export async function untilAnswering(address: string, timeoutMs = 30_000, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Its own subchannel: grpc-js shares them between connections, and one left backing off would answer late.
    const channelArgs = { 'grpc.use_local_subchannel_pool': 1 };
    const connection = await Connection.connect({ address, connectTimeout: '2 seconds', channelArgs }).catch(
      () => undefined,
    );
    const answered = await connection?.workflowService.getSystemInfo({}).then(
      () => true,
      () => false,
    );
    await connection?.close();
    if (answered) return;
    signal?.throwIfAborted();
    if (Date.now() > deadline)
      throw new Error(`the Temporal dev server at ${address} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
