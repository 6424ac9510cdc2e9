// Which conversations' turns were shown each memory (the Memory page's "used by"). Noted in memory and written a
// moment later, many in one statement: a turn never waits for its note, nor pays a write of its own. A worker that
// dies loses at most the last second's notes; a memory shown again is noted again.
import type { MemoryUse } from '../core/memory';
import type { Sql } from './migrations';

/** How long notes gather before they are written. */
const FLUSH_MS = 1_000;

export class MemoryUses {
  /** `<memory>\n<conversation>` → the agent, and when (the order of uses in one write is kept). */
  private pending = new Map<string, { goalId: string; at: Date }>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: Sql,
    private readonly warn: (message: string) => void,
  ) {}

  /** That a turn of `conversationId` (an agent of `goalId`) was shown these memories. */
  note(ids: string[], conversationId: string, goalId: string): void {
    const at = new Date();
    for (const id of ids) this.pending.set(`${id}\n${conversationId}`, { goalId, at });
    if (!ids.length || this.timer) return;
    this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Writes what is noted (a memory gone meanwhile is skipped). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending];
    this.pending = new Map();
    if (batch.length) {
      const memories = batch.map(([key]) => key.split('\n')[0]!);
      const conversations = batch.map(([key]) => key.split('\n')[1]!);
      this.writing = this.writing.then(() =>
        this.sql
          .query(
            `INSERT INTO memory_uses (memory_id, conversation_id, goal_id, first_at, last_at)
             SELECT u.m, u.c, u.g, u.t, u.t
             FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS u(m, c, g, t)
             JOIN memories ON memories.id = u.m
             ON CONFLICT (memory_id, conversation_id)
             DO UPDATE SET first_at = LEAST(memory_uses.first_at, EXCLUDED.first_at),
                           last_at = GREATEST(memory_uses.last_at, EXCLUDED.last_at)`,
            [memories, conversations, batch.map(([, u]) => u.goalId), batch.map(([, u]) => u.at.toISOString())],
          )
          .then(
            () => undefined,
            (err: Error) => this.warn(`memory: ${batch.length} notes of use were not kept: ${err.message}`),
          ),
      );
    }
    return this.writing;
  }

  /** The conversations whose turns were shown memory `id`, latest first (at most 50), this process's notes included. */
  async of(id: string): Promise<MemoryUse[]> {
    await this.flush();
    const rows = await this.sql.query<{ conversation_id: string; goal_id: string; first_at: Date; last_at: Date }>(
      'SELECT * FROM memory_uses WHERE memory_id = $1 ORDER BY last_at DESC, conversation_id LIMIT 50',
      [id],
    );
    return rows.rows.map((r) => ({
      conversationId: r.conversation_id,
      goalId: r.goal_id,
      firstAt: new Date(r.first_at).toISOString(),
      lastAt: new Date(r.last_at).toISOString(),
    }));
  }
}
