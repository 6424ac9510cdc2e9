// The stream bus across processes: when the API and the worker run apart, they meet in Redis. One Redis Stream per
// conversation, trimmed and expiring. A subscriber first gets the attempt in progress (read back from the latest entry
// to the one that began it), then new entries from one blocking XREAD that serves every subscribed conversation on a
// connection of its own. Redis being down costs the live text, never the conversation: publish never throws.
import { Redis } from 'ioredis';
import { AttemptLog } from './attempt-log';
import { deliver, type StreamBus, type StreamChunk } from './bus';
import { chunkOf, compareIds, fieldsOf, keyOf, type Entry } from './redis-entries';

/** Entries kept per conversation (approximately): room for a long reply's deltas. */
const MAX_ENTRIES = 10_000;
/** A conversation nobody writes to for this long leaves Redis. */
const EXPIRE_SECONDS = 3_600;
/** A blocking read returns this often even when nothing is written, so the reader notices a dropped key. */
const BLOCK_MS = 10_000;
const PAGE = 500;
const RETRY_MS = 1_000;

type Listener = (chunk: StreamChunk) => void;

interface Subscription {
  log: AttemptLog;
  listeners: Set<Listener>;
  /** The last entry id delivered; undefined until the replay of the attempt in progress is read. */
  cursor?: string;
}

export interface RedisStreamBusOptions {
  /** Where the first error of an outage is reported (console.warn by default). */
  warn?: (message: string) => void;
}

export class RedisStreamBus implements StreamBus {
  private readonly writer: Redis;
  /** Blocked in XREAD most of the time: nothing else can use it. */
  private readonly reader: Redis;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly warn: (message: string) => void;
  private readerClientId?: number;
  private reading = false;
  /** Bumped when the set of keys to read changes; the read in flight was issued for `readGeneration`. */
  private keysGeneration = 0;
  private readGeneration = 0;
  private failing = false;
  private closed = false;

  constructor(url: string, { warn = (m) => console.warn(`warning: ${m}`) }: RedisStreamBusOptions = {}) {
    this.warn = warn;
    // RESP2: XREAD's reply is the same array of [key, entries] whatever the server speaks.
    // One retry per command: while Redis is down, publishes fail fast instead of queueing without bound.
    // A short disconnect timeout: closing waits that long for a socket that never opened (Redis down).
    const common = { protocol: 2, disconnectTimeout: 200 } as const;
    this.writer = new Redis(url, { ...common, maxRetriesPerRequest: 1, connectionName: 'agent-stream' });
    // The reader waits for Redis as long as it takes, and connects only once somebody subscribes.
    this.reader = new Redis(url, {
      ...common,
      maxRetriesPerRequest: null,
      lazyConnect: true,
      connectionName: 'agent-stream-reader',
    });
    this.writer.on('error', (err: Error) => this.failed(err));
    this.writer.on('ready', () => this.recovered());
    this.reader.on('error', (err: Error) => this.failed(err));
    this.reader.on('ready', () => (this.readerClientId = undefined)); // a new connection has a new id
  }

  publish(conversationId: string, chunk: StreamChunk): void {
    if (this.closed) return;
    const key = keyOf(conversationId);
    this.writer
      .pipeline()
      .xadd(key, 'MAXLEN', '~', MAX_ENTRIES, '*', ...fieldsOf(chunk))
      .expire(key, EXPIRE_SECONDS)
      .exec()
      .then(
        (results) => {
          const error = results?.find(([err]) => err)?.[0];
          if (error) this.failed(error);
          else this.recovered();
        },
        (err: Error) => this.failed(err),
      );
  }

  subscribe(conversationId: string, listener: Listener): () => void {
    if (this.closed) return () => {};
    const key = keyOf(conversationId);
    let sub = this.subscriptions.get(key);
    if (!sub) {
      sub = { log: new AttemptLog(), listeners: new Set() };
      this.subscriptions.set(key, sub);
      void this.start(key, sub);
    } else if (sub.cursor !== undefined) {
      for (const chunk of sub.log.partial()) deliver(listener, chunk);
    }
    sub.listeners.add(listener);
    const mine = sub;
    return () => {
      mine.listeners.delete(listener);
      if (mine.listeners.size === 0 && this.subscriptions.get(key) === mine) this.subscriptions.delete(key);
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscriptions.clear();
    this.reader.disconnect();
    // Publishes already sent are flushed by QUIT; a Redis that is down gets no wait.
    if (this.writer.status === 'ready') {
      await Promise.race([this.writer.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]);
    }
    this.writer.disconnect();
  }

  /** Reads back the attempt in progress, hands it to the listeners, then joins the blocking read. */
  private async start(key: string, sub: Subscription): Promise<void> {
    while (!this.closed && this.subscriptions.get(key) === sub) {
      try {
        const { entries, lastId } = await this.attemptInProgress(key);
        if (this.subscriptions.get(key) !== sub) return;
        for (const [, fields] of entries) {
          const chunk = chunkOf(fields);
          if (chunk) sub.log.add(chunk);
        }
        sub.cursor = lastId;
        for (const chunk of sub.log.partial()) for (const listener of [...sub.listeners]) deliver(listener, chunk);
        this.keysGeneration++;
        this.wakeReader();
        return;
      } catch (err) {
        this.failed(err as Error);
        await sleep(RETRY_MS);
      }
    }
  }

  /**
   * The entries since the latest `done` or `discard` (which is included: it tells how the previous attempt ended),
   * oldest first, and the id to read on from. Nothing is in progress when the newest entry is itself such an end.
   */
  private async attemptInProgress(key: string): Promise<{ entries: Entry[]; lastId: string }> {
    const found: Entry[] = [];
    let lastId = '0-0'; // an empty stream: everything written later is new
    for (let end = '+'; found.length < MAX_ENTRIES;) {
      const page = await this.writer.xrevrange(key, end, '-', 'COUNT', PAGE);
      if (end === '+' && page[0]) lastId = page[0][0];
      for (const entry of page) {
        found.push(entry);
        const kind = chunkOf(entry[1])?.kind;
        if (kind === 'done' || kind === 'discard') return { entries: found.reverse(), lastId };
      }
      if (page.length < PAGE) break;
      end = `(${page[page.length - 1]![0]}`;
    }
    return { entries: found.reverse(), lastId };
  }

  private wakeReader(): void {
    if (this.reading) void this.unblockStaleRead();
    else void this.readLoop();
  }

  /** Ends a blocking read issued before the key set changed, so the next one includes the new key at once. */
  private async unblockStaleRead(): Promise<void> {
    // The unblock may reach Redis before the read it targets (two connections): then try again shortly.
    for (let tries = 0; tries < 40 && this.reading && this.readGeneration < this.keysGeneration; tries++) {
      if (this.readerClientId !== undefined) {
        const unblocked = await this.writer.client('UNBLOCK', this.readerClientId).catch(() => 0);
        if (unblocked === 1) return;
      }
      await sleep(25);
    }
  }

  private async readLoop(): Promise<void> {
    this.reading = true;
    try {
      while (!this.closed) {
        const ready = [...this.subscriptions].filter(([, s]) => s.cursor !== undefined);
        if (ready.length === 0) return;
        try {
          this.readerClientId ??= await this.reader.client('ID');
          this.readGeneration = this.keysGeneration;
          const reply = (await this.reader.xread(
            'COUNT',
            1_000,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            ...ready.map(([key]) => key),
            ...ready.map(([, s]) => s.cursor!),
          )) as [string, Entry[]][] | null;
          for (const [key, entries] of reply ?? []) this.dispatch(key, entries);
        } catch (err) {
          if (this.closed) return;
          this.failed(err as Error);
          await sleep(RETRY_MS);
        }
      }
    } finally {
      this.reading = false;
    }
  }

  private dispatch(key: string, entries: Entry[]): void {
    const sub = this.subscriptions.get(key);
    if (!sub?.cursor) return;
    for (const [id, fields] of entries) {
      if (compareIds(id, sub.cursor) <= 0) continue; // already replayed (the subscription was renewed meanwhile)
      sub.cursor = id;
      const chunk = chunkOf(fields);
      if (!chunk || !sub.log.add(chunk)) continue;
      for (const listener of [...sub.listeners]) deliver(listener, chunk);
    }
  }

  /** Reported once per outage: a down Redis would otherwise log on every chunk. */
  private failed(err: Error): void {
    if (this.closed || this.failing) return;
    this.failing = true;
    this.warn(`the stream bus cannot reach Redis (live reply text is not shared until it can): ${err.message}`);
  }

  private recovered(): void {
    this.failing = false;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
