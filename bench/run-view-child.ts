// The run-view benchmark's helper processes (the API alone, the SSE views) and the bench speak over IPC: each request
// gets one reply, matched by id, so the bench can read a process's figures at a window's edges. Children run under tsx
// (fork with --require tsx/cjs) and exit when the bench lets go of them.
import { fork, type ChildProcess } from 'node:child_process';

type Reply<T> = { id: number; ok: true; body: T } | { id: number; ok: false; message: string };

export interface IpcChild<Req, Rep> {
  pid: number | undefined;
  ask(req: Req): Promise<Rep>;
  /** Lets the child go and waits for it to exit (killed if it has not 5 s later). */
  stop(): Promise<void>;
}

export function startChild<Req, Rep>(file: string, what: string, env?: NodeJS.ProcessEnv): IpcChild<Req, Rep> {
  const child: ChildProcess = fork(file, [], {
    execArgv: ['--require', 'tsx/cjs'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ...(env ? { env } : {}),
  });
  const waiting = new Map<number, { resolve(body: Rep): void; reject(err: Error): void }>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code) => {
    for (const w of waiting.values()) w.reject(new Error(`${what} exited (${code})`));
    waiting.clear();
  });
  child.on('message', (m: Reply<Rep>) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.ok) w?.resolve(m.body);
    else w?.reject(new Error(`${what}: ${m.message}`));
  });
  let next = 0;
  return {
    pid: child.pid,
    ask: (req) =>
      new Promise<Rep>((resolve, reject) => {
        if (child.exitCode !== null || !child.connected) return reject(new Error(`${what} is not running`));
        const id = ++next;
        waiting.set(id, { resolve, reject });
        child.send({ id, body: req });
      }),
    async stop() {
      if (child.exitCode !== null) return;
      if (child.connected) child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The child's side: answers each request with `handle`'s result (or its error), and exits once the bench lets go. */
export function serveParent<Req, Rep>(handle: (req: Req) => Promise<Rep>, onExit: () => Promise<void>): void {
  process.on('message', (m: { id: number; body: Req }) => {
    handle(m.body).then(
      (body) => process.send!({ id: m.id, ok: true, body } satisfies Reply<Rep>),
      (err: Error) => process.send!({ id: m.id, ok: false, message: err.message } satisfies Reply<Rep>),
    );
  });
  process.on('disconnect', () => void onExit().finally(() => process.exit(0)));
}
