// The stream bus, in memory and over a real Redis (testkit/redis-server.ts: a redis-server or Valkey on a free port):
// order, the partial text a late subscriber gets first, discard, several subscribers, unsubscribe, and a Redis that
// is down.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { MemoryStreamBus, type StreamBus, type StreamChunk } from '../../stream';
import { RedisStreamBus } from '../../stream/redis-bus';
import { freePort, startRedis, type RunningRedis } from '../../testkit/redis-server';

const delta = (attempt: string, text: string): StreamChunk => ({ kind: 'delta', attempt, text });
const done = (attempt: string): StreamChunk => ({ kind: 'done', attempt });
const discard = (attempt: string): StreamChunk => ({ kind: 'discard', attempt });

async function waitFor(check: () => boolean, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Everything a listener received. */
function collect(bus: StreamBus, conversationId: string) {
  const chunks: StreamChunk[] = [];
  const unsubscribe = bus.subscribe(conversationId, (c) => chunks.push(c));
  return { chunks, unsubscribe, text: () => chunks.map((c) => (c.kind === 'delta' ? c.text : '')).join('') };
}

/** The two sides of a bus: in memory one object; over Redis, two (the worker's and the API's, as in production). */
interface Sides {
  publisher: StreamBus;
  subscriber: StreamBus;
  /** Lets a new subscription go live (Redis reads back the attempt in progress first). */
  settle(): Promise<void>;
}

function behavesAsAStreamBus(name: string, open: () => Sides) {
  describe(`${name}: shared behaviour`, () => {
    let sides: Sides;
    let id: string;
    beforeEach(() => {
      sides = open();
      id = `convo-${randomUUID()}`;
    });
    afterEach(async () => {
      await sides.publisher.close();
      await sides.subscriber.close();
    });

    it('delivers chunks in the order they were published', async () => {
      const seen = collect(sides.subscriber, id);
      await sides.settle();
      const chunks = [delta('r/1/1', 'The '), delta('r/1/1', 'quick '), delta('r/1/1', 'fox'), done('r/1/1')];
      for (const c of chunks) sides.publisher.publish(id, c);
      await waitFor(() => seen.chunks.length === 4);
      expect(seen.chunks).toEqual(chunks);
    });

    it('gives a late subscriber the partial text of the attempt in progress first, then the live chunks', async () => {
      sides.publisher.publish(id, delta('r/1/1', 'Hello, '));
      sides.publisher.publish(id, delta('r/1/1', 'wor'));
      await sides.settle();
      const late = collect(sides.subscriber, id);
      await waitFor(() => late.chunks.length === 1);
      expect(late.chunks).toEqual([delta('r/1/1', 'Hello, wor')]);
      await sides.settle();
      sides.publisher.publish(id, delta('r/1/1', 'ld!'));
      sides.publisher.publish(id, done('r/1/1'));
      await waitFor(() => late.chunks.length === 3);
      expect(late.text()).toBe('Hello, world!');
      expect(late.chunks[2]).toEqual(done('r/1/1'));
    });

    it('replays nothing once the attempt is done: its message is in history', async () => {
      sides.publisher.publish(id, delta('r/1/1', 'All done.'));
      sides.publisher.publish(id, done('r/1/1'));
      await sides.settle();
      const late = collect(sides.subscriber, id);
      await sides.settle();
      sides.publisher.publish(id, delta('r/2/1', 'Next'));
      await waitFor(() => late.chunks.length === 1);
      expect(late.chunks).toEqual([delta('r/2/1', 'Next')]);
    });

    it('passes a discard on, drops stray chunks of the discarded attempt, and replays only the retry', async () => {
      const live = collect(sides.subscriber, id);
      await sides.settle();
      sides.publisher.publish(id, delta('r/1/1', 'Half a'));
      sides.publisher.publish(id, discard('r/1/1'));
      sides.publisher.publish(id, delta('r/1/2', 'A whole '));
      sides.publisher.publish(id, delta('r/1/1', 'stray (a worker that lost the activity)'));
      sides.publisher.publish(id, delta('r/1/2', 'reply'));
      await waitFor(() => live.chunks.length === 4);
      await sides.settle();
      expect(live.chunks).toEqual([
        delta('r/1/1', 'Half a'),
        discard('r/1/1'),
        delta('r/1/2', 'A whole '),
        delta('r/1/2', 'reply'),
      ]);
      const late = collect(sides.subscriber, id);
      await waitFor(() => late.chunks.length === 1);
      expect(late.chunks).toEqual([delta('r/1/2', 'A whole reply')]);
    });

    it('drops the late text of an attempt another replaced (a model call cancelled for an interrupting message)', async () => {
      const live = collect(sides.subscriber, id);
      await sides.settle();
      sides.publisher.publish(id, delta('r/5/1', 'Booking the 21st'));
      sides.publisher.publish(id, delta('r/7/1', 'Booked the '));
      sides.publisher.publish(id, delta('r/5/1', ' now, checking'));
      sides.publisher.publish(id, delta('r/7/1', '22nd.'));
      // Its activity heard of the cancel: that it is void still passes, once.
      sides.publisher.publish(id, discard('r/5/1'));
      sides.publisher.publish(id, delta('r/5/1', ' stray'));
      await waitFor(() => live.chunks.length === 4);
      await sides.settle();
      expect(live.chunks).toEqual([
        delta('r/5/1', 'Booking the 21st'),
        delta('r/7/1', 'Booked the '),
        delta('r/7/1', '22nd.'),
        discard('r/5/1'),
      ]);
      const late = collect(sides.subscriber, id);
      await waitFor(() => late.chunks.length === 1);
      expect(late.chunks).toEqual([delta('r/7/1', 'Booked the 22nd.')]);
    });

    it('delivers to every subscriber, and stops delivering to one that unsubscribed', async () => {
      const first = collect(sides.subscriber, id);
      const second = collect(sides.subscriber, id);
      await sides.settle();
      sides.publisher.publish(id, delta('r/1/1', 'one '));
      await waitFor(() => first.chunks.length === 1 && second.chunks.length === 1);
      second.unsubscribe();
      sides.publisher.publish(id, delta('r/1/1', 'two'));
      await waitFor(() => first.chunks.length === 2);
      await sides.settle();
      expect(first.text()).toBe('one two');
      expect(second.text()).toBe('one ');
    });

    it('keeps conversations apart', async () => {
      const a = collect(sides.subscriber, `${id}-a`);
      const b = collect(sides.subscriber, `${id}-b`);
      await sides.settle();
      sides.publisher.publish(`${id}-a`, delta('ra/1/1', 'for a'));
      sides.publisher.publish(`${id}-b`, delta('rb/1/1', 'for b'));
      await waitFor(() => a.chunks.length === 1 && b.chunks.length === 1);
      expect(a.text()).toBe('for a');
      expect(b.text()).toBe('for b');
    });

    it('a listener that throws does not stop the others', async () => {
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
      sides.subscriber.subscribe(id, () => {
        throw new Error('broken screen');
      });
      const healthy = collect(sides.subscriber, id);
      await sides.settle();
      sides.publisher.publish(id, delta('r/1/1', 'still here'));
      await waitFor(() => healthy.chunks.length === 1);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('broken screen'));
      warn.mockRestore();
    });
  });
}

behavesAsAStreamBus('MemoryStreamBus', () => {
  const bus = new MemoryStreamBus();
  return { publisher: bus, subscriber: bus, settle: async () => {} };
});

describe('MemoryStreamBus: bounded memory', () => {
  it('forgets a conversation shortly after its attempt ends, unless somebody listens', async () => {
    const bus = new MemoryStreamBus({ forgetAfterMs: 20 });
    bus.publish('c1', delta('r/1/1', 'text'));
    const unsubscribe = bus.subscribe('c2', () => {});
    bus.publish('c2', delta('r/2/1', 'text'));
    bus.publish('c2', done('r/2/1'));
    expect(bus.size).toBe(2);
    await new Promise((r) => setTimeout(r, 60));
    expect(bus.size).toBe(2); // c1 is still being written, c2 has a listener
    bus.publish('c1', done('r/1/1'));
    unsubscribe();
    await new Promise((r) => setTimeout(r, 60));
    expect(bus.size).toBe(0);
    await bus.close();
  });

  it('remembers at most maxConversations, evicting the least recently active', async () => {
    const bus = new MemoryStreamBus({ maxConversations: 3 });
    for (const id of ['a', 'b', 'c']) bus.publish(id, delta(`${id}/1/1`, 'x'));
    bus.publish('a', delta('a/1/1', 'y')); // a is now the most recent
    bus.publish('d', delta('d/1/1', 'x'));
    expect(bus.size).toBe(3);
    const replayed = (id: string) => collect(bus, id).chunks;
    expect(replayed('b')).toEqual([]); // evicted
    expect(replayed('a')).toEqual([delta('a/1/1', 'xy')]);
    await bus.close();
  });
});

describe('RedisStreamBus', () => {
  let redis: RunningRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  // A new subscription reads back the attempt in progress before it goes live: a moment on a local Redis.
  const settle = () => new Promise<void>((r) => setTimeout(r, 150));
  behavesAsAStreamBus('RedisStreamBus', () => ({
    publisher: new RedisStreamBus(redis.url),
    subscriber: new RedisStreamBus(redis.url),
    settle,
  }));

  it('keeps one trimmed, expiring stream per conversation', async () => {
    const bus = new RedisStreamBus(redis.url);
    const raw = new Redis(redis.url);
    try {
      bus.publish('c-keys', delta('r/1/1', 'text'));
      bus.publish('c-keys', done('r/1/1'));
      await settle();
      expect(await raw.xlen('agent:stream:c-keys')).toBe(2);
      const ttl = await raw.ttl('agent:stream:c-keys');
      expect(ttl).toBeGreaterThan(3_000);
      expect(ttl).toBeLessThanOrEqual(3_600);
    } finally {
      raw.disconnect();
      await bus.close();
    }
  });

  it('reads every subscribed conversation on one connection, and a new one goes live at once', async () => {
    const publisher = new RedisStreamBus(redis.url);
    const subscriber = new RedisStreamBus(redis.url);
    try {
      const first = collect(subscriber, 'c-first');
      await settle(); // the reader now blocks on c-first alone
      const second = collect(subscriber, 'c-second');
      await settle();
      const began = Date.now();
      publisher.publish('c-second', delta('r/1/1', 'prompt'));
      await waitFor(() => second.chunks.length === 1);
      // Without waking the blocked read, c-second would wait out the 10 s block.
      expect(Date.now() - began).toBeLessThan(2_000);
      publisher.publish('c-first', delta('r/2/1', 'also'));
      await waitFor(() => first.chunks.length === 1);
      const raw = new Redis(redis.url);
      const readers = String(await raw.client('LIST'))
        .split('\n')
        .filter((line) => line.includes('name=agent-stream-reader'));
      raw.disconnect();
      expect(readers).toHaveLength(1);
    } finally {
      await publisher.close();
      await subscriber.close();
    }
  });

  it('a Redis that is down: publish neither throws nor waits, the outage is reported once, close returns', async () => {
    const warnings: string[] = [];
    const bus = new RedisStreamBus(`redis://127.0.0.1:${await freePort()}`, { warn: (m) => warnings.push(m) });
    const unsubscribe = bus.subscribe('c-down', () => {});
    // publish hands back nothing to wait on: the write goes on, or fails, after it returned.
    for (let i = 0; i < 100; i++) expect(bus.publish('c-down', delta('r/1/1', `chunk ${i} `))).toBeUndefined();
    await waitFor(() => warnings.length > 0);
    unsubscribe();
    await bus.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cannot reach Redis/);
  });
});
