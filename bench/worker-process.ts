// The agent worker in a process of its own, started as it is run: compiled (`node dist/worker/main.js`, the
// production path) or from source as `npm run worker` runs it (npm → tsx → node, esbuild beside it). Measured from
// outside: when its "worker on" line appears, and the RSS of its own process and of the whole process tree (/proc:
// Linux only, NaN elsewhere). Not testkit/worker-process.ts: that one runs worker/main.ts through tsx only, for faults.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { withBuildLock } from '../testkit/build-lock';
import { startProcess } from '../testkit/process';
import { processTree, rssBytes } from './proc';

const ROOT = path.join(__dirname, '..');
const run = promisify(execFile);

export type WorkerMode = 'tsx' | 'compiled';

const COMMANDS: Record<WorkerMode, string[]> = {
  tsx: ['npm', 'run', '-s', 'worker'],
  compiled: [process.execPath, 'dist/worker/main.js'],
};

export interface WorkerProcess {
  /** What was spawned: node itself for the compiled worker, npm for tsx. */
  pid: number;
  /** performance.now() when it was spawned. */
  spawnedAt: number;
  /** ms from the spawn to its "worker on" line. */
  logMs: number;
  /** RSS in bytes of the worker's own process (the largest of the tree) and of the tree (wrappers, esbuild). */
  rss(): { worker: number; tree: number };
  /** SIGTERM to the process group (a graceful stop), SIGKILL after 15 s. */
  stop(): Promise<void>;
}

let built: Promise<void> | undefined;

/** `npm run build`'s server part (tsc, then the workflow bundle), so the compiled worker is these sources; once a run
 * (the worker and memory parts both need it). */
export function buildCompiledWorker(): Promise<void> {
  return (built ??= build());
}

/** One build at a time with the tests' (CI runs the bench beside them): testkit/build-lock.ts. */
function build(): Promise<void> {
  return withBuildLock(async () => {
    await run(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: ROOT },
    );
    await run(process.execPath, ['dist/worker/workflow-bundle.js'], { cwd: ROOT });
  });
}

export async function spawnWorker(mode: WorkerMode, env: Record<string, string>): Promise<WorkerProcess> {
  const [command, ...args] = COMMANDS[mode];
  // A group of its own: stopping it stops npm, tsx, the worker and esbuild together.
  const worker = await startProcess(command!, args, {
    cwd: ROOT,
    env,
    ready: /worker on /,
    what: `the ${mode} worker`,
    timeoutMs: 120_000,
    detached: true,
  });
  return {
    pid: worker.pid,
    spawnedAt: worker.spawnedAt,
    logMs: worker.readyAt - worker.spawnedAt,
    rss() {
      // A process gone meanwhile counts nothing; none readable (no /proc): NaN.
      const sizes = processTree(worker.pid).map(rssBytes).filter(Number.isFinite);
      if (!sizes.length) return { worker: NaN, tree: NaN };
      return { worker: Math.max(...sizes), tree: sizes.reduce((a, b) => a + b, 0) };
    },
    stop: () => worker.end('SIGTERM', 15_000),
  };
}
