// The memory store over any Postgres (memory/open-store.ts opens PGlite by default). Every query names the owner:
// nothing reads or changes another owner's memories unless the caller passes none (an admin). A write carries its
// key (the conversation and the call), so a Remember retried or replayed finds the row it wrote instead of a second.
import { randomBytes } from 'node:crypto';
import { CHARS_PER_TOKEN, type Memory, type MemorySource } from '../core/memory';
import { UserError } from '../core/user-error';
import type { Sql } from './migrations';
import type { MemoryVectors } from './vectors';
import { MemoryUses } from './uses';

export interface MemoryLimits {
  /** MEMORY_MAX_PER_OWNER. */
  perOwner: number;
  /** MEMORY_MAX_BYTES: one memory's text and tags. */
  bytes: number;
}

export interface NewMemory {
  owner: string;
  goalId?: string | null;
  text: string;
  tags?: string[];
  source: MemorySource;
  /** `<conversation>/<run>/<call>` for a Remember: the same key (of the same owner) finds the same memory. */
  key?: string;
  /** Keys an earlier build gave the same write (`<conversation>/<call>`): an attempt begun before an upgrade. */
  formerKeys?: string[];
}

interface Row {
  id: string;
  owner: string;
  goal_id: string | null;
  text: string;
  tags: string[];
  source: MemorySource;
  created_at: Date | string;
  updated_at: Date | string;
  proposed?: boolean;
}

/** `owner`: that owner's memories only; null: every owner's (an admin's view). */
type Scope = string | null;

/** The rows a recall reads of each kind (matches, nearest, newest): about what its budget shows (a memory, its id and
 * source take ~100 characters of it), at most 100. Rows read and not shown cost time in PGlite's WebAssembly; the
 * kinds together still offer more than the budget holds. */
const recallRows = (maxTokens: number) => Math.min(100, Math.max(5, Math.ceil((maxTokens * CHARS_PER_TOKEN) / 100)));

/** A memory's columns: never its vector (kilobytes a row, read by nothing but the database). */
const COLUMNS = 'id, owner, goal_id, text, tags, source, created_at, updated_at, proposed';
const M_COLUMNS = COLUMNS.split(', ')
  .map((c) => `m.${c}`)
  .join(', ');

export class MemoryStore {
  /** Which conversations were shown each memory. */
  readonly uses: MemoryUses;

  /** EMBEDDING_MODEL's: recall by meaning beside full-text. */
  readonly vectors?: MemoryVectors;
  /** The database has vector columns (this process may make none): an edit marks its memory's vector stale. */
  private readonly vectorColumns: boolean;

  constructor(
    private readonly sql: Sql,
    readonly limits: MemoryLimits,
    {
      vectors,
      vectorColumns = vectors !== undefined,
      warn = (m) => console.warn(`warning: ${m}`),
    }: { vectors?: MemoryVectors; vectorColumns?: boolean; warn?: (message: string) => void } = {},
  ) {
    this.vectors = vectors;
    this.vectorColumns = vectorColumns;
    this.uses = new MemoryUses(sql, warn);
  }

  /** The database the memories are kept in, for statements kept beside the store's own (memory/proposals.ts). */
  get db(): Sql {
    return this.sql;
  }

  /** Keeps a memory, or finds the one its key already wrote for this owner (`existing`). */
  async remember(m: NewMemory): Promise<{ memory: Memory; existing: boolean }> {
    const text = m.text.trim();
    const tags = [...new Set((m.tags ?? []).map((t) => t.trim()).filter(Boolean))];
    if (!text) throw new UserError('A memory needs its words.');
    const keys = m.key ? [m.key, ...(m.formerKeys ?? [])] : [];
    const held = async (sql: Sql) =>
      keys.length
        ? (
            await sql.query<Row>(`SELECT ${COLUMNS} FROM memories WHERE owner = $1 AND write_key = ANY($2::text[])`, [
              m.owner,
              keys,
            ])
          ).rows[0]
        : undefined;
    const found = await held(this.sql);
    if (found) return { memory: memoryOf(found), existing: true };
    this.checkSize(text, tags);
    // One owner's writes one at a time (a lock per owner): two at once cannot both pass MEMORY_MAX_PER_OWNER, nor
    // two attempts with one key both write.
    const kept = await this.sql.transaction(async (tx) => {
      await lockOwner(tx, m.owner);
      const again = await held(tx);
      if (again) return { row: again, existing: true };
      const n = await ownerCount(tx, m.owner);
      if (n >= this.limits.perOwner) throw this.full(m.owner, n);
      const inserted = await tx.query<Row>(
        `INSERT INTO memories (id, owner, goal_id, text, tags, source, write_key, search_text)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (write_key) DO NOTHING RETURNING ${COLUMNS}`,
        [
          newMemoryId(),
          m.owner,
          m.goalId ?? null,
          text,
          tags,
          JSON.stringify(m.source),
          m.key ?? null,
          searchText(text, tags),
        ],
      );
      // Keys name a conversation's run: only another owner's memory can hold this one, and it is never theirs to read.
      if (!inserted.rows[0]) throw new Error(`The memory write key ${m.key} is another owner's.`);
      return { row: inserted.rows[0], existing: false };
    });
    if (!kept.existing) await this.vectors?.write(kept.row.id, searchText(text, tags));
    return { memory: memoryOf(kept.row), existing: kept.existing };
  }

  /** Why `owner` cannot keep this fact now (its size, their count), or nothing. */
  async refusal(owner: string, text: string, tags: string[]): Promise<string | null> {
    try {
      this.checkSize(text.trim(), tags);
      await this.checkRoom(owner);
      return null;
    } catch (err) {
      if (err instanceof UserError) return err.message;
      throw err;
    }
  }

  async get(scope: Scope, id: string): Promise<Memory | null> {
    const rows = await this.sql.query<Row>(
      `SELECT ${COLUMNS} FROM memories WHERE id = $1 AND ($2::text IS NULL OR owner = $2)`,
      [id, scope],
    );
    return rows.rows[0] ? memoryOf(rows.rows[0]) : null;
  }

  /** Newest first. */
  async list(scope: Scope, { limit = 50, offset = 0 } = {}): Promise<Memory[]> {
    const rows = await this.sql.query<Row>(
      `SELECT ${COLUMNS} FROM memories WHERE ($1::text IS NULL OR owner = $1) ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [scope, limit, offset],
    );
    return rows.rows.map(memoryOf);
  }

  /** Full-text search, best match first. */
  async search(scope: Scope, query: string, limit = 20): Promise<Memory[]> {
    const q = tsQuery(query);
    if (!q) return [];
    const rows = await this.sql.query<Row>(
      `SELECT ${M_COLUMNS} FROM memories m, to_tsquery('english', $2) q
       WHERE ($1::text IS NULL OR m.owner = $1) AND m.tsv @@ q
       ORDER BY ts_rank(m.tsv, q) DESC, m.created_at DESC LIMIT $3`,
      [scope, q, limit],
    );
    return rows.rows.map(memoryOf);
  }

  /**
   * What a turn is shown: the owner's memories for this agent (and for every agent), those matching `query` first —
   * by its words, and by meaning where an embedding model is set (each ranked list counts: reciprocal rank fusion) —
   * then the newest, until `maxTokens` is spent. One query.
   */
  async recall(owner: string, goalId: string, query: string, maxTokens: number): Promise<Memory[]> {
    const near = this.vectors ? await this.vectors.query(query) : null;
    // Index scans in one statement (the matches by the text index, the newest by the owner's; the nearest by
    // distance among the owner's), not a rank of every row of the owner: recall stays quick as memories grow.
    const mine = 'm.owner = $1 AND (m.goal_id IS NULL OR m.goal_id = $2) AND NOT m.proposed';
    const nearest = near
      ? `UNION ALL
         (SELECT ${M_COLUMNS}, 2 AS part, (m.embedding <=> $5::vector)::real AS rank FROM memories m
           WHERE ${mine} AND m.embedding_model = $6 AND vector_dims(m.embedding) = vector_dims($5::vector)
           ORDER BY m.embedding <=> $5::vector LIMIT $4)`
      : '';
    const rows = await this.sql.query<Row & { part: number }>(
      `SELECT * FROM (
         (SELECT ${M_COLUMNS}, 0 AS part, ts_rank(m.tsv, q) AS rank FROM memories m, to_tsquery('english', $3) q
           WHERE $3 <> '' AND ${mine} AND m.tsv @@ q ORDER BY rank DESC, m.created_at DESC LIMIT $4)
         UNION ALL
         (SELECT ${M_COLUMNS}, 1 AS part, 0::real AS rank FROM memories m
           WHERE ${mine} ORDER BY m.created_at DESC LIMIT $4)
         ${nearest}
       ) r ORDER BY part, CASE WHEN part = 2 THEN rank ELSE -rank END, created_at DESC`,
      [owner, goalId, tsQuery(query), recallRows(maxTokens), ...(near ? [near, this.vectors!.model] : [])],
    );
    const shown: Memory[] = [];
    let left = maxTokens * CHARS_PER_TOKEN;
    for (const row of ranked(rows.rows)) {
      const m = memoryOf(row);
      const cost = m.text.length + m.id.length + 40;
      if (cost > left) break;
      left -= cost;
      shown.push(m);
    }
    return shown;
  }

  async edit(scope: Scope, id: string, change: { text?: string; tags?: string[] }): Promise<Memory> {
    const now = await this.get(scope, id);
    if (!now) throw new UserError(`No memory ${id}.`, 'not_found');
    const text = change.text?.trim() ?? now.text;
    const tags = change.tags ?? now.tags;
    if (!text) throw new UserError('A memory needs its words.');
    this.checkSize(text, tags);
    const rows = await this.sql.query<Row>(
      `UPDATE memories SET text = $2, tags = $3, search_text = $4, updated_at = now()
       ${this.vectorColumns ? ', embedding_model = NULL' : ''} WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, text, tags, searchText(text, tags)],
    );
    await this.vectors?.write(id, searchText(text, tags));
    return memoryOf(rows.rows[0]!);
  }

  /** Whether it was there. Gone from the store and from every later turn. */
  async forget(scope: Scope, id: string): Promise<boolean> {
    const rows = await this.sql.query<{ id: string }>(
      'DELETE FROM memories WHERE id = $1 AND ($2::text IS NULL OR owner = $2) RETURNING id',
      [id, scope],
    );
    return rows.rows.length > 0;
  }

  /** Every memory of the owner, oldest first: what `import` takes back. */
  async exportAll(owner: string): Promise<Memory[]> {
    const rows = await this.sql.query<Row>(`SELECT ${COLUMNS} FROM memories WHERE owner = $1 ORDER BY created_at, id`, [
      owner,
    ]);
    return rows.rows.map(memoryOf);
  }

  /** Memories exported before, for `owner` (whoever they were for): one the owner has already (its id or its words)
   * is not added twice; each keeps its id unless another owner's memory has it. How many were added. */
  async importAll(owner: string, memories: Memory[]): Promise<number> {
    for (const m of memories) this.checkSize(m.text, m.tags ?? []);
    // All or nothing: an import that would pass the owner's limit keeps none of it.
    const added = await this.sql.transaction(async (tx) => {
      await lockOwner(tx, owner);
      let n = await ownerCount(tx, owner);
      let added = 0;
      for (const m of memories) {
        const tags = m.tags ?? [];
        const held = await tx.query<{ owner: string }>(
          'SELECT owner FROM memories WHERE id = $1 OR (owner = $2 AND md5(text) = md5($3) AND text = $3)',
          [m.id, owner, m.text],
        );
        if (held.rows.some((r) => r.owner === owner)) continue;
        if (n >= this.limits.perOwner) throw this.full(owner, n);
        await tx.query(
          `INSERT INTO memories (id, owner, goal_id, text, tags, source, search_text, created_at, updated_at, proposed)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            held.rows.length ? newMemoryId() : m.id,
            owner,
            m.goalId ?? null,
            m.text,
            tags,
            JSON.stringify(m.source ?? { kind: 'import' }),
            searchText(m.text, tags),
            m.createdAt,
            m.updatedAt ?? m.createdAt,
            m.proposed === true,
          ],
        );
        n++;
        added++;
      }
      return added;
    });
    if (added) {
      // PGlite runs no autovacuum: without fresh statistics its planner reads every row of a grown owner.
      await this.sql.exec('ANALYZE memories');
      await this.vectors?.backfill();
    }
    return added;
  }

  private async checkRoom(owner: string): Promise<void> {
    const n = await ownerCount(this.sql, owner);
    if (n >= this.limits.perOwner) throw this.full(owner, n);
  }

  private full(owner: string, n: number): UserError {
    return new UserError(
      `${owner} has ${n} memories, the most one owner may keep (MEMORY_MAX_PER_OWNER): forget some first.`,
      'refused',
    );
  }

  private checkSize(text: string, tags: string[]): void {
    const bytes = Buffer.byteLength(text) + Buffer.byteLength(tags.join(' '));
    if (bytes > this.limits.bytes)
      throw new UserError(`The memory is ${bytes} bytes; the most is ${this.limits.bytes} (MEMORY_MAX_BYTES).`);
  }
}

/** Held until the transaction ends: the owner's other writes (Remember, import, proposals) wait. */
export async function lockOwner(tx: Sql, owner: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`memory-owner:${owner}`]);
}

/** How many memories `owner` keeps (proposals included): what MEMORY_MAX_PER_OWNER counts. */
export async function ownerCount(sql: Sql, owner: string): Promise<number> {
  const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM memories WHERE owner = $1', [owner]);
  return rows.rows[0]!.n;
}

/** Matches first, by their fused rank (1/(K + place) in each list they are in), then the newest not matched. */
function ranked(rows: (Row & { part: number })[]): Row[] {
  const K = 60;
  const score = new Map<string, { row: Row; score: number }>();
  const place = [0, 0, 0];
  const newest: Row[] = [];
  for (const row of rows) {
    if (row.part === 1) {
      newest.push(row);
      continue;
    }
    const hit = score.get(row.id) ?? { row, score: 0 };
    hit.score += 1 / (K + place[row.part]!++);
    score.set(row.id, hit);
  }
  const matches = [...score.values()].sort((a, b) => b.score - a.score).map((h) => h.row);
  return [...matches, ...newest.filter((r) => !score.has(r.id))];
}

function memoryOf(r: Row): Memory {
  return {
    id: r.id,
    owner: r.owner,
    goalId: r.goal_id,
    text: r.text,
    tags: r.tags ?? [],
    source: typeof r.source === 'string' ? JSON.parse(r.source) : r.source,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    ...(r.proposed ? { proposed: true as const } : {}),
  };
}

export const newMemoryId = () => `mem_${randomBytes(8).toString('hex')}`;
const searchText = (text: string, tags: string[]) => [text, ...tags].join(' ');

/** The words of free text as an OR query (letters and digits only, so nothing in it is tsquery syntax). */
export function tsQuery(text: string): string {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [])].slice(0, 32);
  return words.join(' | ');
}
