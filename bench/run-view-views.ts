// The open views of the run-view benchmark, in a process of their own so that reading and parsing them loads neither
// the API nor the worker: run streams (`/run/events`) or the plain events streams (`/events`) of conversations. Of a
// run stream it notes, for every step and turn that closes after the stream opened, the arrival of the first `run`
// event showing it closed against the close's own time in the history (the server's clock, on this host): the view lag.
import type { RunBranch, RunView } from '../core/run-view';
import { serveParent, startChild } from './run-view-child';
import { monoMs, openSse, type SseConnection } from './sse-reader';

export type StreamKind = 'run' | 'events';

export interface ViewsReading {
  /** Events received since the last reading (keep-alive comments are not events), and their data's bytes. */
  events: number;
  bytes: number;
  /** Closed step → first `run` event showing it closed, ms: every step of the tree (delegates' too) … */
  stepLagsMs: number[];
  /** … and the conversation's own turns. */
  turnLagsMs: number[];
  /** The data of `error` events (a stream that cannot follow its conversation says so). */
  errors: string[];
  /** The process's CPU time since the last reading, ms. */
  cpuMs: number;
}

type Request = { type: 'open'; urls: string[]; kind: StreamKind } | { type: 'read' } | { type: 'close' };
type Reply = { ms: number } | ViewsReading | { closed: number };

export interface Views {
  /** Opens the streams (20 at a time); resolves once each has had its first event, with how long that took. */
  open(urls: string[], kind: StreamKind): Promise<number>;
  /** What arrived since the last reading. */
  read(): Promise<ViewsReading>;
  /** Closes every open stream. */
  close(): Promise<void>;
  stop(): Promise<void>;
}

export function startViews(): Views {
  const child = startChild<Request, Reply>(__filename, 'the SSE views process');
  return {
    open: async (urls, kind) => ((await child.ask({ type: 'open', urls, kind })) as { ms: number }).ms,
    read: () => child.ask({ type: 'read' }) as Promise<ViewsReading>,
    close: async () => void (await child.ask({ type: 'close' })),
    stop: () => child.stop(),
  };
}

/** The closed steps and turns a view shows, by a key stable across views, with when each closed. */
function closedIn(view: RunView): { key: string; endedAt: string; turn: boolean }[] {
  const found: { key: string; endedAt: string; turn: boolean }[] = [];
  const walk = (b: RunBranch, root: boolean) => {
    for (const t of b.turns) {
      if (root && t.endedAt && t.status !== 'running')
        found.push({ key: `${b.runId}#t${t.index}`, endedAt: t.endedAt, turn: true });
      for (const s of t.steps) {
        if (s.endedAt) found.push({ key: `${b.runId}#${s.id}`, endedAt: s.endedAt, turn: false });
        if (s.branch) walk(s.branch, false);
      }
    }
  };
  walk(view.root, true);
  return found;
}

function runChild(): void {
  // Stamps are taken on the monotonic clock as bytes arrive; history times are wall-clock.
  const wallOffset = Date.now() - monoMs();
  let connections: SseConnection[] = [];
  let reading: ViewsReading = fresh();
  let cpuAt = process.cpuUsage();

  function fresh(): ViewsReading {
    return { events: 0, bytes: 0, stepLagsMs: [], turnLagsMs: [], errors: [], cpuMs: 0 };
  }

  async function open(urls: string[], kind: StreamKind): Promise<number> {
    const started = monoMs();
    let next = 0;
    const openOne = async (url: string) => {
      const seen = new Set<string>();
      let first = true;
      let gotFirst: () => void = () => {};
      const firstEvent = new Promise<void>((resolve) => (gotFirst = resolve));
      const connection = await openSse(url, (e) => {
        reading.events++;
        reading.bytes += Buffer.byteLength(e.data);
        if (e.event === 'error') reading.errors.push(e.data);
        if (kind === 'run' && e.event === 'run') {
          const at = e.at + wallOffset;
          for (const c of closedIn(JSON.parse(e.data) as RunView)) {
            if (seen.has(c.key)) continue;
            seen.add(c.key);
            if (!first) (c.turn ? reading.turnLagsMs : reading.stepLagsMs).push(at - Date.parse(c.endedAt));
          }
          first = false;
        }
        gotFirst();
      });
      connections.push(connection);
      await firstEvent;
    };
    const lane = async () => {
      while (next < urls.length) await openOne(urls[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(20, urls.length) }, lane));
    return monoMs() - started;
  }

  serveParent<Request, Reply>(
    async (req) => {
      if (req.type === 'open') return { ms: await open(req.urls, req.kind) };
      if (req.type === 'close') {
        for (const c of connections) c.close();
        const closed = connections.length;
        connections = [];
        return { closed };
      }
      const { user, system } = process.cpuUsage(cpuAt);
      cpuAt = process.cpuUsage();
      const r = { ...reading, cpuMs: (user + system) / 1000 };
      reading = fresh();
      return r;
    },
    async () => {
      for (const c of connections) c.close();
    },
  );
}

if (require.main === module) runChild();
