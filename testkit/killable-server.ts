// A Temporal dev server the test owns outright, for faults of the server itself: SIGKILLed like a crashed machine,
// then started again on the same port and SQLite file, so only what it had persisted survives.
import path from 'node:path';
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
  const start = () => spawnDevServer({ dbFile: path.join(dataDir, 'temporal.db'), port });
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
