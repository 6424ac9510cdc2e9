// Turns go to one workflow at a time; after `turnsPerSession` turns it is closed and a new one opened, both
// outside the timed window, so history growth stays bounded and alike for every scenario. Closing a workflow
// reads its history once and keeps the server's timeline of the timed turns.
import { performance } from 'node:perf_hooks';
import type { WorkflowHandle } from '@temporalio/client';
import type { History } from '@temporalio/common/lib/proto-utils';
import { historyTimeline, type UpdateSpan } from './history-timeline';
import type { Sampler } from './round-robin';

/** One workflow receiving a scenario's turns: an agent conversation, or a floor workflow. */
export interface Session {
  /** The timed part: one update, from the client's call until it has the result. */
  turn(): Promise<unknown>;
  /** Untimed: throws when the result is not what the scenario expects. */
  check(result: unknown): void;
  /** Untimed: ends the workflow after `turns` turns, checks what it did, and returns its history. */
  close(turns: number): Promise<SessionEnd>;
  /** Best effort after a failure: terminates the workflow. */
  abort(): Promise<void>;
}

export interface SessionEnd {
  historyLength: number;
  /** Runs of the workflow (more than 1 if it continued as new). */
  runs: number;
  history: History;
}

export interface ClosedSession {
  turns: number;
  historyLength: number;
  runs: number;
  /** The server's record of the turns that were timed (warm-up turns dropped), in order. */
  timedTurns: UpdateSpan[];
}

export interface RotationPolicy {
  turnsPerSession: number;
  /**
   * Warm-up turns in workflows of their own, closed before the first timed turn (the MCP benchmarks), rather
   * than at the start of the first timed one (the chat-turn benchmarks). Kept as each has always been measured.
   */
  warmupApart: boolean;
}

export class SessionRotation implements Sampler {
  readonly samples: number[] = [];
  readonly closed: ClosedSession[] = [];
  /** Workflows started so far, warm-up ones included. */
  opened = 0;
  private current?: { session: Session; turns: number; warmupTurns: number };

  constructor(
    private readonly policy: RotationPolicy,
    private readonly open: (seq: number) => Promise<Session>,
  ) {}

  async sample(timed: boolean): Promise<number> {
    if (this.current && this.due(timed)) await this.finish();
    this.current ??= { session: await this.open(++this.opened), turns: 0, warmupTurns: 0 };
    const c = this.current;
    const started = performance.now();
    const result = await c.session.turn();
    const elapsed = performance.now() - started;
    c.session.check(result);
    c.turns++;
    if (!timed) c.warmupTurns++;
    return elapsed;
  }

  /** Closes the open workflow, if any (untimed). */
  async finish(): Promise<void> {
    const c = this.current;
    if (!c) return;
    this.current = undefined;
    const end = await c.session.close(c.turns);
    const timedTurns = historyTimeline(end.history).updates.slice(c.warmupTurns);
    this.closed.push({ turns: c.turns, historyLength: end.historyLength, runs: end.runs, timedTurns });
  }

  async abort(): Promise<void> {
    await this.current?.session.abort();
    this.current = undefined;
  }

  private due(timed: boolean): boolean {
    const c = this.current!;
    return c.turns >= this.policy.turnsPerSession || (timed && this.policy.warmupApart && c.warmupTurns > 0);
  }
}

export async function abortWorkflow(handle: WorkflowHandle): Promise<void> {
  await handle.terminate('benchmark aborted').catch(() => undefined);
}
