// The Temporal server the benchmarks run against: a local dev server started for the run (the Temporal CLI, in memory,
// with the dynamic config npm start and the tests use, or another one to compare with), or, with TEMPORAL_ADDRESS set,
// an existing one reached with the same settings as the worker (runtime/connection.ts). Not testkit/temporal.ts's
// TestWorkflowEnvironment: the bench needs the server's pid (its CPU time), other dynamic config, and an external server.
import { execFileSync } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { temporalTarget } from '../runtime/connection';
import { DEV_SERVER_DYNAMIC_CONFIG, freePort, spawnDevServer, stopChild } from '../worker/dev-server';
import { findTemporalCli, MISSING_CLI } from '../worker/pypi-binaries';

export interface BenchServer {
  client: Client;
  connection: NativeConnection;
  namespace: string;
  /** What the report says about the server. */
  info: {
    mode: 'dev-server' | 'external';
    address: string;
    cli?: string;
    cliVersion?: string;
    dynamicConfig?: Record<string, unknown>;
  };
  /** The dev server's process, for its CPU time; none for an external server. */
  pid?: number;
  teardown(): Promise<void>;
}

export async function startServer(): Promise<BenchServer> {
  return process.env.TEMPORAL_ADDRESS ? connectExternal() : startDevServer();
}

/** For the processes the bench starts: with TEMPORAL_ADDRESS set, that server's TLS and key settings (TEMPORAL_*). */
export function externalServerSettings(): Record<string, string> {
  if (!process.env.TEMPORAL_ADDRESS) return {};
  return Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => /^TEMPORAL_/.test(e[0]) && e[1] !== undefined),
  );
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

/** A dev server of our own, in memory, with `dynamicConfig` (by default what npm start and the tests run with). */
export async function startDevServer(
  dynamicConfig: Readonly<Record<string, unknown>> = DEV_SERVER_DYNAMIC_CONFIG,
): Promise<BenchServer> {
  const cli = findTemporalCli();
  if (!cli) throw new Error(`${MISSING_CLI} Or set TEMPORAL_ADDRESS to use a running server.`);
  const port = await freePort(0);
  const { child, exited } = await spawnDevServer({ cli, port, dynamicConfig });
  const address = `127.0.0.1:${port}`;
  try {
    const connection = await NativeConnection.connect({ address });
    const clientConnection = await Connection.connect({ address });
    return {
      client: new Client({ connection: clientConnection, namespace: 'default' }),
      connection,
      namespace: 'default',
      info: { mode: 'dev-server', address, cli, cliVersion: cliVersion(cli), dynamicConfig: { ...dynamicConfig } },
      pid: child.pid,
      async teardown() {
        await clientConnection.close();
        await connection.close();
        await stopChild(child, exited);
      },
    };
  } catch (err) {
    await stopChild(child, exited);
    throw err;
  }
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
