// Live run views (the run events stream): one watch per conversation however many views it has. The watch follows
// the conversation's history and each delegate's by long poll (the server answers when something happens), looks
// at the attempts of activities running longer than a moment (a retry shows while it runs), and sends every view
// the whole tree again when anything changed, at most once per `throttleMs`.
import type { Client } from '@temporalio/client';
import type { RunBranch, RunView } from '../core/run-view';
import type { PendingAttempt } from '../views/run-view/history-fold';
import {
  assemble,
  branchOf,
  delegateRuns,
  HistoryTail,
  pendingAttempts,
  type TemporalUi,
} from '../views/run-view/run-reader';

export interface RunWatchTiming {
  /** Least time between two views sent. */
  throttleMs: number;
  /** An activity running this long has its attempt looked at, then again this often while it runs. */
  attemptsMs: number;
}

const DEFAULT_TIMING: RunWatchTiming = { throttleMs: 200, attemptsMs: 1_000 };

/** What a watch has cost (the benchmark reads it): requests to the server since the API started. */
export interface RunWatchCounters {
  historyPolls: number;
  describes: number;
  viewsSent: number;
}

interface View {
  /** The view as JSON: made once per change, however many views it goes to. */
  send(json: string): void;
  end(): void;
}

export class RunWatches {
  private readonly watches = new Map<string, RunWatch>();
  readonly counters: RunWatchCounters = { historyPolls: 0, describes: 0, viewsSent: 0 };

  constructor(
    private readonly client: Client,
    private readonly temporalUi?: TemporalUi,
    private readonly timing: RunWatchTiming = DEFAULT_TIMING,
  ) {}

  /** Opens a view: sends the run now, then on every change; `end` once the whole tree has ended. */
  async open(id: string, send: View['send'], end: View['end']): Promise<() => void> {
    let watch = this.watches.get(id);
    if (!watch) {
      watch = new RunWatch(id, this.client, this.counters, this.timing, this.temporalUi, () => this.watches.delete(id));
      this.watches.set(id, watch);
    }
    return watch.add({ send, end });
  }

  close(): void {
    for (const w of [...this.watches.values()]) w.stop();
  }
}

/** One workflow run followed: its tail, its folded branch, its running activities' attempts. */
interface Followed {
  tail: HistoryTail;
  branch: RunBranch;
  pending?: Map<string, PendingAttempt>;
}

class RunWatch {
  private readonly views = new Set<View>();
  private readonly followed = new Map<string, Followed>();
  /** Workflows whose first read is under way: not started twice. */
  private readonly starting = new Set<string>();
  private readonly polls = new Set<AbortController>();
  private readonly ready: Promise<void>;
  private latest: RunView | null = null;
  private sendTimer: NodeJS.Timeout | null = null;
  private lastSent = 0;
  private attemptsTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly rootId: string,
    private readonly client: Client,
    private readonly counters: RunWatchCounters,
    private readonly timing: RunWatchTiming,
    private readonly temporalUi: TemporalUi | undefined,
    private readonly onStop: () => void,
  ) {
    this.ready = this.follow(rootId);
    this.ready.catch(() => this.stop());
    this.attemptsTimer = setInterval(() => void this.lookAtAttempts(), timing.attemptsMs);
  }

  async add(view: View): Promise<() => void> {
    await this.ready;
    this.views.add(view);
    view.send(JSON.stringify(this.latest ?? this.compose()));
    if (this.ended()) this.endAll();
    return () => {
      this.views.delete(view);
      if (this.views.size === 0) this.stop();
    };
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const poll of this.polls) poll.abort();
    if (this.sendTimer) clearTimeout(this.sendTimer);
    if (this.attemptsTimer) clearInterval(this.attemptsTimer);
    this.onStop();
  }

  /** Reads a workflow's history so far, then follows it (and each delegate it starts) until it ends. */
  private async follow(workflowId: string, runId?: string): Promise<void> {
    if (this.stopped) return;
    this.starting.add(workflowId);
    let followed: Followed;
    try {
      const tail = runId
        ? new HistoryTail(this.client, workflowId, runId)
        : await HistoryTail.latest(this.client, workflowId);
      // A long poll answers at once while there is history to read: the first page now, the rest as it follows.
      this.counters.historyPolls++;
      await tail.poll(true);
      followed = { tail, branch: branchOf(this.client, tail) };
      this.followed.set(workflowId, followed);
    } finally {
      this.starting.delete(workflowId);
    }
    await Promise.all(this.newDelegates(followed).map((r) => this.follow(r.workflowId, r.runId)));
    void this.keepFollowing(followed);
  }

  private async keepFollowing(f: Followed): Promise<void> {
    while (!this.stopped && !f.tail.closed) {
      try {
        this.counters.historyPolls++;
        // Each long poll its own signal (one listener each): stopping the watch aborts those still waiting.
        const poll = new AbortController();
        this.polls.add(poll);
        const changed = await this.client
          .withAbortSignal(poll.signal, () => f.tail.poll(true))
          .finally(() => this.polls.delete(poll));
        if (!changed) continue;
      } catch {
        if (this.stopped) return;
        // The server away for a moment: look again shortly rather than spin.
        await new Promise((r) => setTimeout(r, 1_000));
        continue;
      }
      this.refold(f);
      this.followDelegates(f);
      this.changed();
    }
    const next = f.tail.nextRunId();
    // The conversation continued as new: its next run is followed from here (its earlier turns stay in Temporal).
    if (next && !this.stopped)
      await this.follow(f.tail.workflowId, next).then(
        () => this.changed(),
        () => undefined,
      );
  }

  private refold(f: Followed): void {
    f.branch = branchOf(this.client, f.tail, f.pending);
  }

  private newDelegates(f: Followed): { workflowId: string; runId: string }[] {
    return delegateRuns(f.branch).filter((r) => !this.followed.has(r.workflowId) && !this.starting.has(r.workflowId));
  }

  /** Activities running past a moment: their attempt and last failure (a retry after a worker died shows). */
  /** Starts following the delegates a branch has started since; one whose first read failed is tried on each tick. */
  private followDelegates(f: Followed): void {
    for (const r of this.newDelegates(f))
      this.follow(r.workflowId, r.runId).then(
        () => this.changed(),
        () => undefined,
      );
  }

  private async lookAtAttempts(): Promise<void> {
    const now = Date.now();
    for (const f of this.followed.values()) this.followDelegates(f);
    for (const f of this.followed.values()) {
      if (f.tail.closed || !runningLong(f.branch, now - this.timing.attemptsMs)) continue;
      try {
        this.counters.describes++;
        const pending = await pendingAttempts(this.client, { workflowId: f.tail.workflowId, runId: f.tail.runId });
        if (JSON.stringify([...pending]) === JSON.stringify([...(f.pending ?? [])])) continue;
        f.pending = pending;
        this.refold(f);
        this.changed();
      } catch {
        // Looked at again on the next tick.
      }
    }
  }

  private changed(): void {
    if (this.stopped || this.sendTimer) return;
    const wait = Math.max(0, this.lastSent + this.timing.throttleMs - Date.now());
    this.sendTimer = setTimeout(() => {
      this.sendTimer = null;
      this.lastSent = Date.now();
      const view = this.compose();
      const json = JSON.stringify(view);
      for (const v of this.views) v.send(json);
      this.counters.viewsSent += this.views.size;
      if (this.ended()) this.endAll();
    }, wait);
  }

  private compose(): RunView {
    const now = Date.now();
    // Open runs' times (a turn or a wait still going) as of now, not of their last event.
    for (const f of this.followed.values())
      if (!f.tail.closed) f.branch = branchOf(this.client, f.tail, f.pending, now);
    const branches = new Map([...this.followed].map(([id, f]) => [id, f.branch]));
    this.latest = { root: assemble(this.rootId, branches, now, this.temporalUi), at: new Date(now).toISOString() };
    return this.latest;
  }

  /** The conversation and every delegate have closed (a continued run is followed, not ended). */
  private ended(): boolean {
    return [...this.followed.values()].every((f) => f.tail.closed && !f.tail.nextRunId());
  }

  private endAll(): void {
    for (const v of [...this.views]) v.end();
    this.views.clear();
    this.stop();
  }
}

function runningLong(branch: RunBranch, since: number): boolean {
  return branch.turns.some((t) =>
    t.steps.some((s) => s.status === 'running' && s.kind !== 'delegate' && Date.parse(s.startedAt) < since),
  );
}
