// Proposed memories in the store (memory/proposals.ts), on PGlite and on a real PostgreSQL server: a conversation run's
// proposals are written once however often its activity runs, even twice at once; the owner's facts in the same
// words are not proposed again; limits refuse in words naming the setting; recall skips a proposal until its owner
// keeps it, and only its owner (or an admin) can.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LazyMemoryStore, readMemorySettings } from '../../memory/open-store';
import type { MemoryStore } from '../../memory/memory-store';
import { keepProposal, propose, proposedBy } from '../../memory/proposals';
import type { Sql } from '../../memory/migrations';
import { startPostgres, type RunningPostgres } from '../../testkit/postgres-server';

describe.each(['PGlite', 'PostgreSQL'])('proposed memories on %s', (database) => {
  let server: RunningPostgres | undefined;
  let lazy: LazyMemoryStore;
  let store: MemoryStore;
  let sql: Sql;

  beforeAll(async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'memory-proposals-')), 'pglite');
    const env: NodeJS.ProcessEnv = { MEMORY_DIR: dir, MEMORY_MAX_PER_OWNER: '4', MEMORY_MAX_BYTES: '40' };
    if (database === 'PostgreSQL') {
      server = await startPostgres();
      env.DATABASE_URL = server.url;
    }
    lazy = new LazyMemoryStore(readMemorySettings(env, tmpdir()));
    store = await lazy.store();
    sql = store.db;
  }, 60_000);
  afterAll(async () => {
    await lazy?.close();
    await server?.stop();
  });

  it('writes a run’s proposals once, sent again or twice at once; known facts are not proposed again', async () => {
    await store.remember({ owner: 'ada', text: 'Prefers Fridays off', source: { kind: 'api' } });
    const facts = ['prefers fridays off', 'manager is Grace Hopper', 'manager is Grace Hopper', 'takes the 8:15 train'];
    const first = await propose(sql, store.limits, { owner: 'ada', conversationId: 'c1', run: 'c1/r1', facts });
    expect(first).toMatchObject({ again: false, known: 1, refused: [] });
    expect(first.ids).toHaveLength(2);
    const again = await propose(sql, store.limits, {
      owner: 'ada',
      conversationId: 'c1',
      run: 'c1/r1',
      facts: ['other words'],
    });
    expect(again).toMatchObject({ ids: first.ids, again: true });
    expect(await proposedBy(sql, 'c1/r1')).toEqual(first.ids);

    const [x, y] = await Promise.all([
      propose(sql, store.limits, { owner: 'bob', conversationId: 'c2', run: 'c2/r1', facts: ['likes tea'] }),
      propose(sql, store.limits, { owner: 'bob', conversationId: 'c2', run: 'c2/r1', facts: ['likes coffee'] }),
    ]);
    expect(x.ids).toEqual(y.ids);
    expect((await store.list('bob')).map((m) => m.text)).toHaveLength(1);

    // A later conversation under the same id (its own run): proposes anew, but not what cy has already.
    await propose(sql, store.limits, { owner: 'cy', conversationId: 'c4', run: 'c4/r1', facts: ['likes jazz'] });
    const later = await propose(sql, store.limits, {
      owner: 'cy',
      conversationId: 'c4',
      run: 'c4/r2',
      facts: ['Likes jazz', 'plays the cello'],
    });
    expect(later).toMatchObject({ again: false, known: 1 });
    expect(later.ids).toHaveLength(1);

    // For every agent, from the conversation; written in one transaction, so kept at one moment.
    const listed = (await store.list('ada')).filter((m) => m.proposed);
    expect(listed.map((m) => [m.text, m.goalId, m.source]).sort()).toEqual([
      ['manager is Grace Hopper', null, { kind: 'conversation', conversationId: 'c1', callId: 'extract/1' }],
      ['takes the 8:15 train', null, { kind: 'conversation', conversationId: 'c1', callId: 'extract/3' }],
    ]);
  });

  it('recall skips a proposal until its owner keeps it; another owner cannot keep it', async () => {
    const [train] = (await store.search('ada', 'train')).filter((m) => m.proposed);
    expect(train).toBeDefined();
    expect((await store.recall('ada', 'g', 'which train do I take', 500)).map((m) => m.id)).not.toContain(train!.id);
    expect(await keepProposal(sql, 'bob', train!.id)).toBe(false);
    expect((await store.get('ada', train!.id))?.proposed).toBe(true);
    expect(await keepProposal(sql, 'ada', train!.id)).toBe(true);
    const kept = await store.get('ada', train!.id);
    expect(kept?.proposed).toBeUndefined();
    expect(Date.parse(kept!.updatedAt)).toBeGreaterThan(Date.parse(train!.updatedAt));
    expect((await store.recall('ada', 'g', 'which train do I take', 500)).map((m) => m.id)).toContain(train!.id);
    // Kept again: answered as it is, unchanged.
    expect(await keepProposal(sql, null, train!.id)).toBe(true);
    expect((await store.get('ada', train!.id))?.updatedAt).toBe(kept!.updatedAt);
    expect(await keepProposal(sql, 'ada', 'mem_0000000000000000')).toBe(false);
  });

  it('refuses past the limits, in words naming the setting, and writes what fits', async () => {
    // ada has 3 of her 4.
    const written = await propose(sql, store.limits, {
      owner: 'ada',
      conversationId: 'c3',
      run: 'c3/r1',
      facts: ['x'.repeat(41), 'drives a red car', 'likes jazz', 'reads at night'],
    });
    expect(written.ids).toHaveLength(1);
    expect(written.refused).toEqual([
      'A proposed memory is 41 bytes; the most is 40 (MEMORY_MAX_BYTES).',
      'ada has 4 memories, the most one owner may keep (MEMORY_MAX_PER_OWNER): 2 proposed not written.',
    ]);
  });
});
