// The memory store's schema, as numbered migrations run at open, each once, in order, in one transaction with an
// advisory lock: a second process opening the store at the same moment waits, then finds them done.
/** The migration that adds memories' vectors: a store whose database has it keeps them true to the words. */
export const VECTOR_COLUMNS = 4;

export const MIGRATIONS: {
  version: number;
  sql: string;
  /** Run only once the feature is on (EMBEDDING_MODEL set): a server without pgvector serves memory without it. */
  needs?: 'vector';
}[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE memories (
        id text PRIMARY KEY,
        owner text NOT NULL,
        goal_id text,
        text text NOT NULL,
        tags text[] NOT NULL DEFAULT '{}',
        source jsonb NOT NULL,
        -- <conversation>/<call>: a retried or replayed Remember finds the row its first attempt wrote.
        write_key text UNIQUE,
        search_text text NOT NULL,
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', search_text)) STORED,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX memories_owner ON memories (owner, created_at DESC);
      CREATE INDEX memories_tsv ON memories USING gin (tsv);
    `,
  },
  {
    version: 2,
    sql: `
      -- Which conversations' turns were shown a memory (the Memory page's "used by"); gone with the memory.
      CREATE TABLE memory_uses (
        memory_id text NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        conversation_id text NOT NULL,
        goal_id text NOT NULL,
        first_at timestamptz NOT NULL DEFAULT now(),
        last_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (memory_id, conversation_id)
      );
    `,
  },
  {
    version: 3,
    sql: `
      -- Proposed at a conversation's end (the goal's memory.extract), not yet accepted by the owner: never recalled.
      ALTER TABLE memories ADD COLUMN proposed boolean NOT NULL DEFAULT false;
    `,
  },
  {
    version: VECTOR_COLUMNS,
    needs: 'vector',
    sql: `
      CREATE EXTENSION IF NOT EXISTS vector;
      -- No dimension: each embedding model has its own; only one model's vectors are compared (embedding_model).
      ALTER TABLE memories ADD COLUMN embedding vector, ADD COLUMN embedding_model text;
      CREATE INDEX memories_unembedded ON memories (embedding_model);
    `,
  },
  {
    version: 5,
    sql: `
      -- An import finds a memory the owner already has by its words (by their hash: a text may pass btree's limit).
      CREATE INDEX memories_owner_words ON memories (owner, md5(text));
    `,
  },
];

/** Any Postgres: the statements it runs, and a transaction. */
export interface Sql {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(text: string): Promise<unknown>;
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}

/** An arbitrary constant: the lock every process takes while it migrates. */
const MIGRATION_LOCK = 41_042;

/** Runs what is not run yet (a `needs` migration once its feature is on); the versions the database now has. */
export async function migrate(sql: Sql, on: { vector?: boolean } = {}): Promise<Set<number>> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS memory_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM memory_migrations')).rows.map((r) => r.version),
    );
    for (const m of MIGRATIONS) {
      if (done.has(m.version) || (m.needs === 'vector' && !on.vector)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO memory_migrations (version) VALUES ($1)', [m.version]);
      done.add(m.version);
    }
    return done;
  });
}
