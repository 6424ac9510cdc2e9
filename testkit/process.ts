// A process of ours (a worker, the API) started as a user starts it: its output kept, and ready once a line it prints
// says so (the worker's "worker on …", the API's "API http://…"), not merely once it is spawned.
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export interface StartedProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** What `ready` matched in the output. */
  ready: RegExpExecArray;
  /** performance.now() when it was spawned, and when its output first matched `ready`. */
  spawnedAt: number;
  readyAt: number;
  exited: Promise<void>;
  /** Whether its output (from `from` on) comes to match `pattern` within `timeoutMs`; false once it exits. */
  printed(pattern: RegExp, from: number, timeoutMs: number): Promise<boolean>;
  /** Sends `signal` (to its whole process group when `detached`), SIGKILL after `killAfterMs` if given; waits for the exit. */
  end(signal: NodeJS.Signals, killAfterMs?: number): Promise<void>;
}

export async function startProcess(
  command: string,
  args: string[],
  opts: {
    cwd: string;
    env: Record<string, string>;
    ready: RegExp;
    /** Names it in the error when it does not start. */
    what: string;
    timeoutMs?: number;
    /** A process group of its own, ended as one (npm → tsx → node, and what they spawn). */
    detached?: boolean;
  },
): Promise<StartedProcess> {
  const spawnedAt = performance.now();
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opts.detached,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const signal = (s: NodeJS.Signals) => {
    try {
      if (opts.detached) process.kill(-child.pid!, s);
      else child.kill(s);
    } catch {
      // already gone
    }
  };
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    output += d.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  /** The first match of `pattern` in the output from `from` on, within `timeoutMs`; null once it exits without one. */
  const whenPrinted = async (pattern: RegExp, from: number, timeoutMs: number) => {
    const find = () => pattern.exec(output.slice(from));
    const now = find();
    if (now) return now;
    let listener = () => {};
    let timer: NodeJS.Timeout | undefined;
    const found = await Promise.race([
      new Promise<RegExpExecArray>((resolve) => {
        listener = () => {
          const m = find();
          if (m) resolve(m);
        };
        listeners.add(listener);
      }),
      exited.then(find),
      // Cleared below: a pending timer would keep jest from exiting after the tests.
      new Promise<RegExpExecArray | null>((resolve) => (timer = setTimeout(() => resolve(find()), timeoutMs))),
    ]);
    listeners.delete(listener);
    clearTimeout(timer);
    return found;
  };
  const ready = await whenPrinted(opts.ready, 0, opts.timeoutMs ?? 60_000);
  const readyAt = performance.now();
  if (!ready) {
    signal('SIGKILL');
    throw new Error(`${opts.what} did not start:\n${output}`);
  }
  return {
    child,
    pid: child.pid!,
    output: () => output,
    ready,
    spawnedAt,
    readyAt,
    exited,
    printed: async (pattern, from, timeoutMs) => (await whenPrinted(pattern, from, timeoutMs)) !== null,
    async end(s, killAfterMs) {
      if (gone()) return;
      signal(s);
      const kill = killAfterMs === undefined ? undefined : setTimeout(() => signal('SIGKILL'), killAfterMs);
      await exited;
      clearTimeout(kill);
    },
  };
}
