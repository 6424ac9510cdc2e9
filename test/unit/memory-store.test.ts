// The memory store on PGlite (in its thread, as the worker runs it) and on a real PostgreSQL server (DATABASE_URL), the
// same tests for both: a write's key makes it once however often it is sent, even twice at once; every read names its
// owner; recall puts what matches first and keeps to its budget; migrations run once, and again find nothing to do.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LazyMemoryStore, readMemorySettings } from '../../memory/open-store';
import type { MemoryStore } from '../../memory/memory-store';
import { tsQuery } from '../../memory/memory-store';
import { startPostgres, type RunningPostgres } from '../../testkit/postgres-server';
import { freePort } from '../../testkit/redis-server';
import { PostgresSql } from '../../memory/postgres';
import { MIGRATIONS } from '../../memory/migrations';

describe.each(['PGlite', 'PostgreSQL'])('the memory store on %s', (database) => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'memory-store-')), 'pglite');
  let server: RunningPostgres | undefined;
  let lazy: LazyMemoryStore;
  let store: MemoryStore;
  const source = { kind: 'conversation' as const, conversationId: 'c1', callId: 'k1' };

  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = { MEMORY_DIR: dir, MEMORY_MAX_PER_OWNER: '5' };
    if (database === 'PostgreSQL') {
      server = await startPostgres();
      env.DATABASE_URL = server.url;
    }
    lazy = new LazyMemoryStore(readMemorySettings(env, tmpdir()));
    expect(lazy.started).toBe(database === 'PostgreSQL');
    store = await lazy.store();
    expect(lazy.started).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await lazy?.close();
    await server?.stop();
  });

  it('keeps a keyed write once, sent again or twice at once', async () => {
    const write = () => store.remember({ owner: 'ada', text: 'prefers Fridays off', source, key: 'c1/k1' });
    const first = await write();
    const again = await write();
    const [x, y] = await Promise.all([
      store.remember({ owner: 'ada', text: 'likes tea', source, key: 'c1/k2' }),
      store.remember({ owner: 'ada', text: 'likes tea', source, key: 'c1/k2' }),
    ]);
    expect([first.existing, again.existing, again.memory.id]).toEqual([false, true, first.memory.id]);
    expect(x.memory.id).toBe(y.memory.id);
    expect((await store.list('ada')).map((m) => m.text).sort()).toEqual(['likes tea', 'prefers Fridays off']);
  });

  it('answers each owner with their own only; no owner is an admin', async () => {
    await store.remember({ owner: 'bob', text: 'likes Mondays', source: { kind: 'api' } });
    const [ada] = await store.search('ada', 'friday');
    expect(ada?.text).toBe('prefers Fridays off');
    expect(await store.search('bob', 'friday')).toEqual([]);
    expect(await store.get('bob', ada!.id)).toBeNull();
    expect(await store.forget('bob', ada!.id)).toBe(false);
    expect((await store.search(null, 'likes')).map((m) => m.owner).sort()).toEqual(['ada', 'bob']);
  });

  it('recalls what matches first, then the newest, within its budget, this agent’s and every agent’s', async () => {
    await store.remember({ owner: 'ada', goalId: 'goal_x', text: 'manager is Grace', source: { kind: 'api' } });
    const forOther = await store.recall('ada', 'goal_y', 'who is my manager', 500);
    expect(forOther.map((m) => m.text)).not.toContain('manager is Grace');
    const forX = await store.recall('ada', 'goal_x', 'who is my manager', 500);
    expect(forX[0]?.text).toBe('manager is Grace');
    expect(forX).toHaveLength(3);
    expect(await store.recall('ada', 'goal_x', 'who is my manager', 20)).toHaveLength(1);
    expect(tsQuery("what's up? a & b | !c")).toBe('what | up');
  });

  it('refuses past its limits, naming the setting', async () => {
    for (let i = 0; i < 2; i++) await store.remember({ owner: 'ada', text: `fact ${i}`, source: { kind: 'api' } });
    await expect(store.remember({ owner: 'ada', text: 'one too many', source: { kind: 'api' } })).rejects.toThrow(
      'ada has 5 memories, the most one owner may keep (MEMORY_MAX_PER_OWNER): forget some first.',
    );
  });
});

describe('the memory store on PostgreSQL, opened by several at once', () => {
  let server: RunningPostgres;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  it('export from PGlite, import into an empty PostgreSQL database: the same memories', async () => {
    const pglite = new LazyMemoryStore(
      readMemorySettings(
        { MEMORY_DIR: path.join(mkdtempSync(path.join(tmpdir(), 'memory-move-')), 'pglite') },
        tmpdir(),
      ),
    );
    const into = new LazyMemoryStore(
      readMemorySettings({ DATABASE_URL: server.url.replace(/postgres$/, 'moved') }, tmpdir()),
    );
    try {
      const from = await pglite.store();
      await from.remember({ owner: 'ada', text: 'prefers Fridays off', tags: ['pto'], source: { kind: 'api' } });
      await from.remember({ owner: 'ada', goalId: 'goal_x', text: 'manager is Grace', source: { kind: 'cli' } });
      const exported = await from.exportAll('ada');
      const to = await into.store();
      expect(await to.importAll('ada', exported)).toBe(2);
      expect(await to.exportAll('ada')).toEqual(exported);
    } finally {
      await pglite.close();
      await into.close();
    }
  }, 60_000);

  it('makes and migrates a database once while four open it together, and all four work', async () => {
    const url = server.url.replace(/postgres$/, 'fresh');
    const stores = [1, 2, 3, 4].map(() => new LazyMemoryStore(readMemorySettings({ DATABASE_URL: url }, tmpdir())));
    try {
      const opened = await Promise.all(stores.map((s) => s.store()));
      await Promise.all(
        opened.map((s, i) => s.remember({ owner: 'ada', text: `fact ${i}`, source: { kind: 'api' }, key: `k${i}` })),
      );
      expect((await opened[0]!.list('ada')).map((m) => m.text).sort()).toEqual([
        'fact 0',
        'fact 1',
        'fact 2',
        'fact 3',
      ]);
      const sql = new PostgresSql(url);
      const applied = await sql.query<{ version: number }>('SELECT version FROM memory_migrations');
      await sql.close();
      expect(applied.rows.map((r) => r.version).sort()).toEqual(
        MIGRATIONS.filter((m) => !m.needs).map((m) => m.version),
      );
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('a database not made yet is made at first open', async () => {
    const later = new LazyMemoryStore(
      readMemorySettings({ DATABASE_URL: server.url.replace(/postgres$/, 'later') }, tmpdir()),
    );
    await expect((await later.store()).list('ada')).resolves.toEqual([]);
    await later.close();
  });

  it('a server not answering: refused in words naming where (no password), and tried again by the next call', async () => {
    const port = await freePort();
    const lazy = new LazyMemoryStore(
      readMemorySettings({ DATABASE_URL: `postgres://postgres:secret@127.0.0.1:${port}/x` }, tmpdir()),
    );
    await expect(lazy.store()).rejects.toThrow(
      `The memory store at postgres://postgres:***@127.0.0.1:${port}/x could not be opened: connect ECONNREFUSED`,
    );
    const late = await startPostgres(port);
    try {
      await expect((await lazy.store()).list('ada')).resolves.toEqual([]);
      await lazy.close();
    } finally {
      await late.stop();
    }
    expect(() => readMemorySettings({ DATABASE_URL: 'mysql://x' }, tmpdir())).toThrow(
      'DATABASE_URL must be a postgres:// or postgresql:// URL, got "mysql://x"',
    );
  });
});

describe('the memory store on PGlite, two transactions begun together', () => {
  it('runs them one after the other: each sees its own statements only', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'memory-tx-')), 'pglite');
    const lazy = new LazyMemoryStore(readMemorySettings({ MEMORY_DIR: dir }, tmpdir()));
    const { db } = await lazy.store();
    try {
      await db.exec('CREATE TABLE t (k text PRIMARY KEY)');
      // Each inserts, then reads back: interleaved in one session, one would see the other's row, or fail.
      const seen = await Promise.all(
        ['a', 'b'].map((k) =>
          db.transaction(async (tx) => {
            await tx.query('INSERT INTO t VALUES ($1)', [k]);
            await new Promise((r) => setTimeout(r, 20));
            return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n;
          }),
        ),
      );
      expect(seen).toEqual([1, 2]);
    } finally {
      await lazy.close();
    }
  }, 60_000);
});

describe('the memory store on PGlite, faults of its own', () => {
  const open = (dir: string, env: NodeJS.ProcessEnv = {}) =>
    new LazyMemoryStore(readMemorySettings({ MEMORY_DIR: dir, ...env }, tmpdir()));

  it('a folder PGlite cannot open is refused in words, again on the next call, and closes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'memory-broken-'));
    writeFileSync(path.join(dir, 'PG_VERSION'), 'not a version\n');
    const lazy = open(dir);
    await expect(lazy.store()).rejects.toThrow(`The memory store at ${dir} could not be opened: memory store:`);
    await expect(lazy.store()).rejects.toThrow('could not be opened');
    await lazy.close();
  }, 60_000);

  it("one owner's writes at once stay within the limit; a key is never another owner's to read", async () => {
    const lazy = open(path.join(mkdtempSync(path.join(tmpdir(), 'memory-limit-')), 'pglite'), {
      MEMORY_MAX_PER_OWNER: '3',
    });
    const store = await lazy.store();
    try {
      const writes = await Promise.allSettled(
        [1, 2, 3, 4, 5].map((i) => store.remember({ owner: 'ada', text: `fact ${i}`, source: { kind: 'api' } })),
      );
      expect(writes.filter((w) => w.status === 'fulfilled')).toHaveLength(3);
      expect(await store.list('ada')).toHaveLength(3);
      const source = { kind: 'conversation' as const, conversationId: 'c', callId: 'k' };
      await store.remember({ owner: 'bob', text: 'my PIN is 1234', source, key: 'c/r/k' });
      await expect(store.remember({ owner: 'eve', text: 'anything', source, key: 'c/r/k' })).rejects.toThrow(
        "The memory write key c/r/k is another owner's.",
      );
      // An attempt begun before the key named the run finds what it wrote under the key it had.
      const before = await store.remember({ owner: 'bob', text: 'old key', source, key: 'c/k' });
      const after = await store.remember({ owner: 'bob', text: 'old key', source, key: 'c/r2/k', formerKeys: ['c/k'] });
      expect(after).toEqual({ memory: before.memory, existing: true });
    } finally {
      await lazy.close();
    }
  }, 60_000);

  it('a statement beside a transaction that rolls back is kept', async () => {
    const lazy = open(path.join(mkdtempSync(path.join(tmpdir(), 'memory-beside-')), 'pglite'));
    const { db } = await lazy.store();
    try {
      await db.exec('CREATE TABLE t (k text PRIMARY KEY)');
      const failing = db.transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES ('in')");
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('rolled back');
      });
      const beside = db.query("INSERT INTO t VALUES ('beside')");
      await expect(failing).rejects.toThrow('rolled back');
      await beside;
      expect((await db.query<{ k: string }>('SELECT k FROM t')).rows).toEqual([{ k: 'beside' }]);
    } finally {
      await lazy.close();
    }
  }, 60_000);
});
