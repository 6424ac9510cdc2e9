// The HTTP API alone in a process of its own (`npm run api`'s entry point, api/main.ts), in front of a worker that
// runs in the bench process: the deployment where the text being written travels through Redis (REDIS_URL).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');

export interface ApiProcess {
  url: string;
  /** The process's resident set size in bytes (Linux /proc; NaN elsewhere). */
  rss(): number;
  /** The CPU time it has used, ms (Linux /proc; NaN elsewhere). */
  cpuMs(): number;
  stop(): Promise<void>;
}

export async function startApiProcess(opts: {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  redisUrl: string;
  goalId: string;
}): Promise<ApiProcess> {
  // The bench's own server: none of the caller's Temporal or API settings (keys, TLS, profiles) apply to it.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TEMPORAL_|API_|CORS_)/.test(k)));
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'api/main.ts'], {
    cwd: ROOT,
    env: {
      ...inherited,
      ...(process.env.TEMPORAL_ADDRESS ? pick(/^TEMPORAL_/) : {}),
      TEMPORAL_ADDRESS: opts.temporalAddress,
      TEMPORAL_NAMESPACE: opts.namespace,
      TASK_QUEUE: opts.taskQueue,
      REDIS_URL: opts.redisUrl,
      AGENT_GOAL: opts.goalId,
      API_PORT: '0',
      API_HOST: '127.0.0.1',
      API_KEYS: '',
      API_ADMIN_KEYS: '',
      ENV_FILE: '/dev/null',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let timer: NodeJS.Timeout | undefined;
  const url = await Promise.race([
    new Promise<string | undefined>((resolve) => {
      const check = () => {
        const m = /API (http:\/\/\S+)\/api/.exec(output);
        if (m) resolve(m[1]);
        else timer = setTimeout(check, 50);
      };
      check();
    }),
    exited.then(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 60_000).unref()),
  ]);
  clearTimeout(timer);
  if (!url) {
    child.kill('SIGKILL');
    throw new Error(`the API process did not start:\n${output}`);
  }
  return {
    url,
    rss: () => rssOf(child.pid),
    cpuMs: () => cpuMsOf(child.pid),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function pick(pattern: RegExp): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => pattern.test(e[0]) && e[1] !== undefined),
  );
}

/** utime + stime from /proc/<pid>/stat, in clock ticks of 10 ms (Linux's USER_HZ). */
function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

function rssOf(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : NaN;
  } catch {
    return NaN;
  }
}
