// The compiled agent worker (`node dist/worker/main.js`, the production path) in a process of its own, built from these
// sources once a run. Measured from outside: when its "worker on" line appears, when the server first sees it poll, and
// the RSS of its own process and of its process tree (/proc: Linux only, NaN elsewhere). Not
// testkit/worker-process.ts: that one runs worker/main.ts through tsx, for faults.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { temporal } from '@temporalio/proto';
import { withBuildLock } from '../testkit/build-lock';
import { startProcess } from '../testkit/process';
import type { BenchContext } from './context';
import { processTree, rssBytes } from './proc';
import { turnScript, PTO_GOAL } from './scripted-answers';
import { externalServerSettings } from './server';

const ROOT = path.join(__dirname, '..');
const run = promisify(execFile);

export interface WorkerProcess {
  pid: number;
  /** performance.now() when it was spawned. */
  spawnedAt: number;
  /** ms from the spawn to its "worker on" line. */
  logMs: number;
  /** RSS in bytes of the worker's own process (the largest of the tree) and of the tree. */
  rss(): { worker: number; tree: number };
  /** SIGTERM to the process group (a graceful stop), SIGKILL after 15 s. */
  stop(): Promise<void>;
}

let built: Promise<void> | undefined;

/** `npm run build:server` (tsc, then the workflow bundle: `npm run build` without the web chat), so the compiled worker is these sources; once a run
 * (the memory part's runs share it). */
export function buildCompiledWorker(): Promise<void> {
  return (built ??= build());
}

/** One build at a time with the tests' (CI runs the bench beside them): testkit/build-lock.ts. */
function build(): Promise<void> {
  return withBuildLock(async () => {
    await run('npm', ['run', '-s', 'build:server'], { cwd: ROOT });
  });
}

export async function spawnWorker(env: Record<string, string>): Promise<WorkerProcess> {
  // A group of its own: stopping it stops whatever it started too.
  const worker = await startProcess(process.execPath, ['dist/worker/main.js'], {
    cwd: ROOT,
    env,
    ready: /worker on /,
    what: 'the compiled worker',
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

/** The workers are processes of their own: of the run, a part that spawns them needs the server and the run's ids only. */
export type WorkerBenchContext = Pick<BenchContext, 'client' | 'namespace' | 'runId' | 'interrupts'>;

/** The compiled worker built from these sources (once a run), and a fresh folder holding the turn script. */
export async function compiledWorkerFolder(part: string): Promise<{ dir: string; script: string }> {
  process.stderr.write(`bench (${part}): compiling (npm run build:server: tsc, then the workflow bundle)…\n`);
  await buildCompiledWorker();
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${part}-`));
  const script = path.join(dir, 'script.json');
  writeFileSync(script, JSON.stringify(turnScript));
  return { dir, script };
}

/** The worker's settings: the bench server, the zero-latency bench script, no MCP endpoints, no .env, its own DATA_DIR. */
export function workerEnv(
  ctx: Pick<BenchContext, 'namespace'>,
  address: string,
  dir: string,
  script: string,
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...externalServerSettings(),
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: ctx.namespace,
    ENV_FILE: '/dev/null',
    DATA_DIR: dir,
    MCP_ENDPOINTS_FILE: path.join(dir, 'no-mcp-endpoints.json'),
    LLM_MODEL: `scripted:${script}`,
    AGENT_GOAL: PTO_GOAL,
    LOG_LEVEL: 'WARN',
  };
}

/** performance.now() when the server first lists a poller of the queue's workflow tasks. */
export async function firstPoll(ctx: WorkerBenchContext, queue: string, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const asked = performance.now();
    const { pollers } = await ctx.client.workflowService.describeTaskQueue({
      namespace: ctx.namespace,
      taskQueue: { name: queue },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    });
    if (pollers?.length) return asked;
    if (Date.now() > deadline) throw new Error(`no worker polled ${queue} within ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
