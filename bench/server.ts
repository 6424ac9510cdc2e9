// The Temporal server the benchmarks run against: a local dev server started for the run (the Temporal CLI), or,
// with TEMPORAL_ADDRESS set, an existing one reached with the same settings as the worker (worker/connection.ts).
import { execFileSync } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection } from '@temporalio/worker';
import { temporalTarget } from '../client/connection';
import { DEV_SERVER_SEARCH_ATTRIBUTES } from '../worker/search-attributes';
import { findTemporalCli, MISSING_CLI } from '../worker/temporal-cli';

export interface BenchServer {
  client: Client;
  connection: NativeConnection;
  namespace: string;
  /** What the report says about the server. */
  info: { mode: 'dev-server' | 'external'; address: string; cli?: string; cliVersion?: string };
  teardown(): Promise<void>;
}

export async function startServer(): Promise<BenchServer> {
  return process.env.TEMPORAL_ADDRESS ? connectExternal() : startDevServer();
}

async function connectExternal(): Promise<BenchServer> {
  const target = temporalTarget();
  const connection = await NativeConnection.connect(target.connectionOptions);
  const clientConnection = await Connection.connect(target.connectionOptions as never);
  return {
    client: new Client({ connection: clientConnection, namespace: target.namespace }),
    connection,
    namespace: target.namespace,
    info: { mode: 'external', address: target.connectionOptions.address! },
    async teardown() {
      await clientConnection.close();
      await connection.close();
    },
  };
}

async function startDevServer(): Promise<BenchServer> {
  const cli = findTemporalCli();
  if (!cli) throw new Error(`${MISSING_CLI} Or set TEMPORAL_ADDRESS to use a running server.`);
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: cli }, extraArgs: ['--log-level', 'error', ...DEV_SERVER_SEARCH_ATTRIBUTES] },
  });
  return {
    client: env.client,
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    info: { mode: 'dev-server', address: env.address, cli, cliVersion: cliVersion(cli) },
    teardown: () => env.teardown(),
  };
}

function cliVersion(cli: string): string | undefined {
  try {
    return execFileSync(cli, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The Temporal SDK version the workers run, for the report. */
export function sdkVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('@temporalio/worker/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
