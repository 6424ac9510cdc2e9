// A Temporal dev server the test owns outright, for faults of the server itself: SIGKILLed like a crashed machine,
// then started again on the same port and SQLite file, so only what it had persisted survives.
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort, spawnDevServer } from '../worker/dev-server';

export interface KillableServer {
  address: string;
  /** SIGKILL, then waits for the process to be gone. */
  kill(): Promise<void>;
  /** Starts it again where it was; resolves once it answers calls, not merely once its port is open. */
  restart(): Promise<void>;
}

export async function startKillableServer(dataDir: string): Promise<KillableServer> {
  const port = await freePort(0);
  const address = `127.0.0.1:${port}`;
  const start = async () => {
    const server = await spawnDevServer({ dbFile: path.join(dataDir, 'temporal.db'), port });
    await untilAnswering(address);
    return server;
  };
  let server = await start();
  return {
    address,
    async kill() {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    },
    async restart() {
      server = await start();
    },
  };
}

/** The port opens a few seconds before the frontend serves: wait for a real answer. */
async function untilAnswering(address: string, timeoutMs = 30_000): Promise<void> {
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
    if (Date.now() > deadline)
      throw new Error(`the Temporal dev server at ${address} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
