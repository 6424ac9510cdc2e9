// Memories proposed at a conversation's end (a goal's `memory.extract`): rows with `proposed` set, which recall skips
// until their owner keeps one (`keepProposal`) or dismisses it (a delete). Each is keyed
// `<conversation>/<run>/extract/<i>` (the run that ended: an id used again by a later conversation is not taken for
// this one), and one run's are written in one transaction under a lock on that key: an attempt retried after its
// write, or running beside another, finds what the first wrote and writes nothing twice.
import { MAX_PROPOSALS, type MemorySource } from '../core/memory';
import { lockOwner, newMemoryId, ownerCount, type MemoryLimits } from './memory-store';
import type { Sql } from './migrations';

export interface Proposal {
  owner: string;
  /** The conversation that ended: the memories' source. */
  conversationId: string;
  /** `<conversation>/<run>`: the run that ended, its proposals' keys' prefix. */
  run: string;
  /** At most MAX_PROPOSALS, as the model gave them. */
  facts: string[];
}

export interface ProposalsWritten {
  /** The proposed memories' ids: written now, or by an earlier attempt (`again`). */
  ids: string[];
  again: boolean;
  /** Facts the owner had already, in the same words (case aside). */
  known: number;
  /** Facts left out for a limit, in words naming the setting. */
  refused: string[];
}

/** A run's proposals' keys: a few exact keys, so the write_key index finds them. */
const keyOf = (run: string, i: number) => `${run}/extract/${i}`;
const keysOf = (run: string) => Array.from({ length: MAX_PROPOSALS }, (_, i) => keyOf(run, i));

/** The proposals an earlier attempt for this run wrote (none: it wrote none, or never ran). */
export async function proposedBy(sql: Sql, run: string): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    'SELECT id FROM memories WHERE write_key = ANY($1::text[]) ORDER BY write_key',
    [keysOf(run)],
  );
  return rows.rows.map((r) => r.id);
}

/** Writes the facts as the owner's proposed memories (for every agent), but those the owner has already and those a
 * limit refuses. */
export async function propose(sql: Sql, limits: MemoryLimits, p: Proposal): Promise<ProposalsWritten> {
  const facts = p.facts.slice(0, MAX_PROPOSALS).map((f) => f.trim());
  return sql.transaction(async (tx) => {
    // Two attempts at once (a retry while the first still runs) take turns; the second finds the first's rows.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${p.run}/extract`]);
    const earlier = await proposedBy(tx, p.run);
    if (earlier.length) return { ids: earlier, again: true, known: 0, refused: [] };
    // And the owner's other writes wait, so a Remember beside it cannot pass MEMORY_MAX_PER_OWNER with it.
    await lockOwner(tx, p.owner);
    const held = await tx.query<{ text: string }>(
      'SELECT lower(text) AS text FROM memories WHERE owner = $1 AND lower(text) = ANY($2::text[])',
      [p.owner, facts.map((f) => f.toLowerCase())],
    );
    const had = new Set(held.rows.map((r) => r.text));
    const seen = new Set<string>();
    let n = await ownerCount(tx, p.owner);
    const written: ProposalsWritten = { ids: [], again: false, known: 0, refused: [] };
    for (const [i, text] of facts.entries()) {
      const words = text.toLowerCase();
      if (had.has(words)) written.known++;
      if (!text || had.has(words) || seen.has(words)) continue;
      seen.add(words);
      const bytes = Buffer.byteLength(text);
      if (bytes > limits.bytes) {
        written.refused.push(`A proposed memory is ${bytes} bytes; the most is ${limits.bytes} (MEMORY_MAX_BYTES).`);
        continue;
      }
      if (n >= limits.perOwner) {
        written.refused.push(
          `${p.owner} has ${n} memories, the most one owner may keep (MEMORY_MAX_PER_OWNER): ` +
            `${facts.length - i} proposed not written.`,
        );
        break;
      }
      const source: MemorySource = { kind: 'conversation', conversationId: p.conversationId, callId: `extract/${i}` };
      const row = await tx.query<{ id: string }>(
        `INSERT INTO memories (id, owner, goal_id, text, tags, source, write_key, search_text, proposed)
         VALUES ($1, $2, NULL, $3, '{}', $4, $5, $3, true) ON CONFLICT (write_key) DO NOTHING RETURNING id`,
        [newMemoryId(), p.owner, text, JSON.stringify(source), keyOf(p.run, i)],
      );
      // Another attempt wrote this conversation's first (where the lock could not keep them apart): its rows stand.
      if (!row.rows[0]) return { ids: await proposedBy(tx, p.run), again: true, known: 0, refused: [] };
      written.ids.push(row.rows[0].id);
      n++;
    }
    return written;
  });
}

/** Accepts a proposed memory: recalled from now on, changed now. One kept already is left as it is. False: `scope`
 * has no memory `id` (null: an admin, any owner's). */
export async function keepProposal(sql: Sql, scope: string | null, id: string): Promise<boolean> {
  const rows = await sql.query<{ id: string }>(
    `UPDATE memories SET proposed = false, updated_at = CASE WHEN proposed THEN now() ELSE updated_at END
     WHERE id = $1 AND ($2::text IS NULL OR owner = $2) RETURNING id`,
    [id, scope],
  );
  return rows.rows.length > 0;
}
