// Memories by meaning (EMBEDDING_MODEL): each memory's vector kept beside it, compared with the prompt's in the
// database (pgvector's cosine distance). Only one model's vectors are compared: rows of another model, or whose vector
// could not be made (the model down), are left to full-text recall until backfill() makes theirs.
import type { Sql } from './migrations';

/** EMBEDDING_MODEL's vectors (activities/llm/embedding-model.ts makes one through the AI SDK). */
export interface Embedder {
  /** EMBEDDING_MODEL as set: the vectors of one model are compared with each other only. */
  model: string;
  embed(texts: string[]): Promise<number[][]>;
}

/** A vector as pgvector reads it. */
const vectorText = (v: number[]): string => `[${v.join(',')}]`;

/** How many memories one backfill call to the model embeds. */
const BATCH = 64;
/** After a vector could not be made, when backfill tries again. */
const RETRY_MS = 60_000;

export class MemoryVectors {
  private filling: Promise<number> | null = null;
  /** Asked for while a fill runs (an import's rows may be after its last look): it runs once more. */
  private again = false;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly sql: Sql,
    readonly embedder: Embedder,
    private readonly warn: (message: string) => void,
  ) {}

  get model(): string {
    return this.embedder.model;
  }

  /** Gives memory `id` the vector of its words (after a write or an edit); when the model fails, backfill does later. */
  async write(id: string, words: string): Promise<void> {
    try {
      const [v] = await this.embedder.embed([words]);
      // Unless edited meanwhile: the edit makes the vector of its new words.
      await this.sql.query(
        'UPDATE memories SET embedding = $2::vector, embedding_model = $3 WHERE id = $1 AND search_text = $4',
        [id, vectorText(v!), this.model, words],
      );
    } catch (err) {
      // An edit's old vector no longer says what the words do.
      await this.sql.query('UPDATE memories SET embedding = NULL, embedding_model = NULL WHERE id = $1', [id]);
      this.failed(`memory ${id} is kept without its vector for now`, err);
    }
  }

  /** The prompt's vector as pgvector reads it, or null: recall goes on by full-text alone. */
  async query(prompt: string): Promise<string | null> {
    if (!prompt.trim()) return null;
    try {
      const [v] = await this.embedder.embed([prompt]);
      return vectorText(v!);
    } catch (err) {
      this.warn(`memory: the embedding model ${this.model} failed (${(err as Error).message}): recall by words alone`);
      return null;
    }
  }

  /** Makes the vectors this model has not made yet (new, imported, failed, another model's): how many. */
  backfill(): Promise<number> {
    if (this.filling) {
      this.again = true;
      return this.filling;
    }
    const run = async (): Promise<number> => {
      let done = 0;
      do {
        this.again = false;
        done += await this.fill();
      } while (this.again && !this.closed);
      return done;
    };
    this.filling = run()
      .catch((err: unknown) => {
        this.failed('some memories wait for their vectors', err);
        return 0;
      })
      .finally(() => (this.filling = null));
    return this.filling;
  }

  /** No more backfills; waits for one running. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    await this.filling;
  }

  private async fill(): Promise<number> {
    let done = 0;
    while (!this.closed) {
      const { rows } = await this.sql.query<{ id: string; search_text: string }>(
        'SELECT id, search_text FROM memories WHERE embedding_model IS DISTINCT FROM $1 ORDER BY created_at LIMIT $2',
        [this.model, BATCH],
      );
      if (!rows.length) return done;
      const vectors = await this.embedder.embed(rows.map((r) => r.search_text));
      for (const [i, r] of rows.entries())
        // Unless edited meanwhile: the edit made the vector of its new words.
        await this.sql.query(
          'UPDATE memories SET embedding = $2::vector, embedding_model = $3 WHERE id = $1 AND search_text = $4',
          [r.id, vectorText(vectors[i]!), this.model, r.search_text],
        );
      done += rows.length;
    }
    return done;
  }

  private failed(what: string, err: unknown): void {
    if (this.closed) return;
    this.warn(`memory: vectors of ${this.model} could not be made (${(err as Error).message}): ${what}`);
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.backfill();
    }, RETRY_MS);
    this.retry.unref();
  }
}
