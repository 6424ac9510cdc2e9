// The agent worker in a process of its own, started as it is run: compiled (`node dist/worker/main.js`, the
// production path) or from source as `npm run worker` runs it (npm → tsx → node, esbuild beside it). Measured from
// outside: when its "worker on" line appears, and the RSS of its own process and of the whole process tree (/proc:
// Linux only, NaN elsewhere).
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';

const ROOT = path.join(__dirname, '..');
const run = promisify(execFile);
const PROC = existsSync('/proc/self/status');

export type WorkerMode = 'tsx' | 'compiled';

export const COMMANDS: Record<WorkerMode, string[]> = {
  tsx: ['npm', 'run', '-s', 'worker'],
  compiled: [process.execPath, 'dist/worker/main.js'],
};

export interface WorkerProcess {
  pid: number;
  /** performance.now() when it was spawned. */
  spawnedAt: number;
  /** ms from the spawn to its "worker on" line. */
  logMs: number;
  /** RSS in bytes of the worker's own process (the largest of the tree) and of the tree (wrappers, esbuild). */
  rss(): { worker: number; tree: number };
  output(): string;
  /** SIGTERM to the process group (a graceful stop), SIGKILL after 15 s. */
  stop(): Promise<void>;
}

/** `npm run build`'s server part (tsc, then the workflow bundle), so the compiled worker is these sources. */
export async function buildCompiledWorker(): Promise<void> {
  await run(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: ROOT },
  );
  await run(process.execPath, ['dist/worker/workflow-bundle.js'], { cwd: ROOT });
}

export async function spawnWorker(
  mode: WorkerMode,
  env: Record<string, string>,
  readyTimeoutMs = 120_000,
): Promise<WorkerProcess> {
  const [command, ...args] = COMMANDS[mode];
  const spawnedAt = performance.now();
  // A group of its own: stopping it stops npm, tsx, the worker and esbuild together.
  const child = spawn(command!, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let logAt = NaN;
  const onData = (d: Buffer) => {
    output += d.toString();
    if (Number.isNaN(logAt) && output.includes('worker on ')) logAt = performance.now();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + readyTimeoutMs;
  while (Number.isNaN(logAt) && child.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 5));
  const pid = child.pid!;
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      // already gone
    }
  };
  if (Number.isNaN(logAt)) {
    signal('SIGKILL');
    throw new Error(`the ${mode} worker did not start:\n${output}`);
  }
  return {
    pid,
    spawnedAt,
    logMs: logAt - spawnedAt,
    rss() {
      if (!PROC) return { worker: NaN, tree: NaN };
      const sizes = processTree(pid).map(rssOf);
      return { worker: Math.max(...sizes), tree: sizes.reduce((a, b) => a + b, 0) };
    },
    output: () => output,
    async stop() {
      signal('SIGTERM');
      const kill = setTimeout(() => signal('SIGKILL'), 15_000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/** `pid` and all its descendants, from /proc/<pid>/stat's parent pids. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [pid];
  }
  for (const e of entries) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0; // exited meanwhile
  }
}
