// Recall by meaning (EMBEDDING_MODEL) on PGlite with pgvector and on a real PostgreSQL with pgvector, the vectors made
// by the AI SDK's OpenAI provider over HTTP (a local embeddings server): a question sharing no word with a fact finds
// it; a fact matching by words and by meaning ranks above one matching by one of them; the model down, recall goes on
// by words and writes keep their memory, whose vector backfill makes once the model answers again.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEmbedder } from '../../activities/llm/embedding-model';
import { LazyMemoryStore, readMemorySettings } from '../../memory/open-store';
import type { MemoryStore } from '../../memory/memory-store';
import { startFakeEmbeddings, type FakeEmbeddings } from '../../testkit/fake-embeddings';
import { startPostgres, type RunningPostgres } from '../../testkit/postgres-server';

describe.each(['PGlite', 'PostgreSQL'])('recall by meaning on %s', (database) => {
  let model: FakeEmbeddings;
  let server: RunningPostgres | undefined;
  let lazy: LazyMemoryStore;
  let store: MemoryStore;
  const warnings: string[] = [];
  const api = { kind: 'api' as const };

  beforeAll(async () => {
    model = await startFakeEmbeddings();
    const env: NodeJS.ProcessEnv = {
      MEMORY_DIR: path.join(mkdtempSync(path.join(tmpdir(), 'memory-vectors-')), 'pglite'),
      EMBEDDING_MODEL: 'openai:text-embedding-3-small',
    };
    if (database === 'PostgreSQL') {
      server = await startPostgres();
      env.DATABASE_URL = server.url;
    }
    const settings = readMemorySettings(env, tmpdir());
    const embedder = createEmbedder(settings.embeddingModel!, {
      providerEnv: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.baseUrl },
    });
    lazy = new LazyMemoryStore(settings, { embedder, warn: (m) => warnings.push(m) });
    store = await lazy.store();
  }, 60_000);
  afterAll(async () => {
    await lazy?.close();
    await server?.stop();
    await model?.close();
  });

  const texts = async (question: string) => (await store.recall('ada', 'goal_x', question, 500)).map((m) => m.text);

  it('finds a fact by meaning when no word is shared, and ranks words and meaning together first', async () => {
    await store.remember({ owner: 'ada', text: 'prefers Fridays off', source: api });
    await store.remember({ owner: 'ada', text: 'manager is Grace Hopper', source: api });
    await store.remember({ owner: 'ada', text: 'likes an aisle seat', source: api });
    await store.remember({ owner: 'bob', text: 'prefers Mondays off', source: api });
    expect(model.inputs).toContain('prefers Fridays off');
    // "weekday" and "skip" are in no memory: full text finds nothing, the vectors find the Friday fact.
    expect((await texts('which weekday do I skip'))[0]).toBe('prefers Fridays off');
    expect((await texts('who is my boss'))[0]).toBe('manager is Grace Hopper');
    // Never another owner's, however near.
    expect(await texts('which weekday do I skip')).not.toContain('prefers Mondays off');
    // By words and by meaning ("seat") beats by meaning alone.
    await store.remember({ owner: 'ada', text: 'books a window seat on long flights', source: api });
    const [first, second] = await texts('aisle seat please');
    expect([first, second]).toEqual(['likes an aisle seat', 'books a window seat on long flights']);
  });

  it('the model down: recall by words, a write kept without its vector, made by backfill once it answers', async () => {
    model.failing = true;
    let id: string;
    try {
      const kept = await store.remember({ owner: 'ada', text: 'eats vegetarian meals', source: api });
      expect(kept.existing).toBe(false);
      id = kept.memory.id;
      expect(await texts('vegetarian please')).toContain('eats vegetarian meals');
    } finally {
      model.failing = false;
    }
    expect(warnings.some((w) => w.includes('failed') && w.includes('recall by words alone'))).toBe(true);
    expect(warnings.some((w) => w.includes(`${id} is kept without its vector`))).toBe(true);
    // No shared word: while it has no vector, the memories that have one come first.
    expect((await texts('what diet do I follow'))[0]).not.toBe('eats vegetarian meals');
    expect(await store.vectors!.backfill()).toBe(1);
    expect((await texts('what diet do I follow'))[0]).toBe('eats vegetarian meals');
    expect(await store.vectors!.backfill()).toBe(0);
  });

  it('an edit makes the vector of the new words; an import makes the vectors of what it added', async () => {
    const [m] = await store.search('ada', 'aisle');
    await store.edit('ada', m!.id, { text: 'takes PTO on Fridays' });
    expect(model.inputs.at(-1)).toBe('takes PTO on Fridays');
    const before = model.inputs.length;
    expect(await store.importAll('carol', await store.exportAll('ada'))).toBe(5);
    expect(model.inputs.length - before).toBe(5);
  });
});

describe('EMBEDDING_MODEL refused in words', () => {
  it('names the setting, the provider and the key it needs', () => {
    expect(() => readMemorySettings({ EMBEDDING_MODEL: 'text-embedding-3-small' }, tmpdir())).toThrow(
      'EMBEDDING_MODEL must be provider:model',
    );
    expect(() => createEmbedder('anthropic:claude', {})).toThrow(
      'EMBEDDING_MODEL: the anthropic provider has no embedding models; use openai:, google: or openai-compatible:.',
    );
    expect(() => createEmbedder('openai:text-embedding-3-small', {})).toThrow(
      'OPENAI_API_KEY is not set: EMBEDDING_MODEL=openai:text-embedding-3-small needs an API key.',
    );
  });
});
