// Many SSE subscribers in a process of their own, so that reading hundreds of streams loads neither the API's event
// loop nor its memory: the parent names the streams, the child opens them and stamps each `token` event's arrival
// on the host's monotonic clock (comparable with the publish times the parent notes). Run as a child by fork().
import { fork, type ChildProcess } from 'node:child_process';
import { monoMs, openSse, type SseConnection, type TokenData } from './sse-reader';

/** A token as one subscriber received it: [subscriber index, attempt, offset, arrival in monoMs]. */
export type ReceivedToken = [number, string, number, number];

type ToChild =
  { type: 'open'; urls: string[]; concurrency: number } | { type: 'collect'; expected: number; waitMs: number };
type ToParent =
  | { type: 'ready'; ms: number }
  | { type: 'tokens'; tokens: ReceivedToken[]; cpuMs: number }
  | { type: 'error'; message: string };

export interface Subscribers {
  /** All streams are open and have had their first event; how long that took (ms). */
  ready: Promise<number>;
  /**
   * Waits until `expected` tokens arrived (or `waitMs` passed), returns them with the CPU time the child spent since
   * its streams were open (ms), and ends the child.
   */
  collect(expected: number, waitMs?: number): Promise<{ tokens: ReceivedToken[]; cpuMs: number }>;
  /** Ends the child (after a failure). */
  kill(): void;
}

/** Starts the child and has it open `urls`, at most `concurrency` at a time. */
export function startSubscribers(urls: string[], concurrency = 20): Subscribers {
  const child: ChildProcess = fork(__filename, [], {
    execArgv: ['--require', 'tsx/cjs'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the SSE subscriber process exited (${code})`))),
  );
  exited.catch(() => undefined);
  const next = <T extends ToParent['type']>(type: T): Promise<Extract<ToParent, { type: T }>> =>
    Promise.race([
      new Promise<Extract<ToParent, { type: T }>>((resolve, reject) => {
        const on = (m: ToParent) => {
          if (m.type === 'error') reject(new Error(`SSE subscribers: ${m.message}`));
          else if (m.type === type) resolve(m as Extract<ToParent, { type: T }>);
          else return;
          child.off('message', on);
        };
        child.on('message', on);
      }),
      exited,
    ]);
  const send = (m: ToChild) => child.send(m);
  const ready = next('ready').then((m) => m.ms);
  ready.catch(() => undefined);
  send({ type: 'open', urls, concurrency });
  return {
    ready,
    async collect(expected, waitMs = 10_000) {
      const reply = next('tokens');
      send({ type: 'collect', expected, waitMs });
      const { tokens, cpuMs } = await reply;
      child.disconnect();
      return { tokens, cpuMs };
    },
    kill: () => void child.kill('SIGKILL'),
  };
}

/** The child: opens the streams, records tokens, answers `collect`, and exits when the parent lets go. */
function runChild(): void {
  const tokens: ReceivedToken[] = [];
  const connections: SseConnection[] = [];
  let cpuAtReady = process.cpuUsage();
  const reply = (m: ToParent) => process.send!(m);
  process.on('message', (m: ToChild) => {
    if (m.type === 'open') {
      void openAll(m.urls, m.concurrency).then(
        (ms) => {
          cpuAtReady = process.cpuUsage();
          reply({ type: 'ready', ms });
        },
        (err: Error) => reply({ type: 'error', message: err.message }),
      );
    } else {
      void (async () => {
        const deadline = monoMs() + m.waitMs;
        while (tokens.length < m.expected && monoMs() < deadline) await new Promise((r) => setTimeout(r, 20));
        const { user, system } = process.cpuUsage(cpuAtReady);
        reply({ type: 'tokens', tokens, cpuMs: (user + system) / 1000 });
      })();
    }
  });
  process.on('disconnect', () => {
    for (const c of connections) c.close();
    process.exit(0);
  });

  async function openAll(urls: string[], concurrency: number): Promise<number> {
    const started = monoMs();
    let nextIndex = 0;
    const openOne = async (index: number) => {
      let first: () => void = () => {};
      const firstEvent = new Promise<void>((resolve) => (first = resolve));
      connections.push(
        await openSse(urls[index]!, (e) => {
          first();
          if (e.event !== 'token') return;
          const t = JSON.parse(e.data) as TokenData;
          tokens.push([index, t.attempt, t.offset, e.at]);
        }),
      );
      await firstEvent;
    };
    const lane = async () => {
      while (nextIndex < urls.length) await openOne(nextIndex++);
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, lane));
    return monoMs() - started;
  }
}

if (require.main === module) runChild();
