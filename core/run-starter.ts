// Who started a run nobody typed into: a schedule (Temporal Schedules name its workflow `sched-<name>-<time due>`) or
// a webhook trigger (`trig-<name>.<delivery key>`). Told from the workflow id alone, which every execution of the run
// keeps, so nothing is stored beside the workflows and the client's run records (client/unattended-runs.ts) agree.
// Pure, so the run view, the registry's figures, the CLI and the web chat read it alike.
import type { DelegateEnvelope } from './conversation-types';
export interface RunStarter {
  source: 'schedule' | 'trigger';
  /** The schedule's or the trigger's name. */
  name: string;
}

const SCHEDULED = /^sched-(.+)-(\d{4}-\d\d-\d\dT[\d:.]+Z)$/;
/** The key part is a plain word (api/triggers/trigger-routes.ts: idPart): a run's delegates (`<run>/<n>-<goal>`) are
 * not runs of the trigger. */
const TRIGGERED = /^trig-([A-Za-z0-9][A-Za-z0-9_-]*)\.([A-Za-z0-9_-]+)$/;
/** Ids no conversation a person starts may take (client/agent-client.ts: start): a schedule's or a trigger's run's. */
export const UNATTENDED_ID = /^(sched|trig)-/;

export const triggerRunId = (trigger: string, key: string) => `trig-${trigger}.${key}`;

/** Who started a run, from its workflow id; null for a conversation a person started (or a delegate). */
export function startedBy(workflowId: string): RunStarter | null {
  const scheduled = SCHEDULED.exec(workflowId);
  if (scheduled) return { source: 'schedule', name: scheduled[1]! };
  const triggered = TRIGGERED.exec(workflowId);
  return triggered ? { source: 'trigger', name: triggered[1]! } : null;
}

/** "started by schedule nightly", as the run view and the CLI say it. */
export function startedByText(s: RunStarter): string {
  return `started by ${s.source} ${s.name}`;
}

/** A schedule's or a trigger's runs in the registry's window. */
export interface StarterStats extends RunStarter {
  runs: number;
  /** Ended with the agent's answer (its envelope's status `ok`). */
  ok: number;
  /** Failed, timed out, was cancelled or terminated, or ended with an answer that is not `ok` (an error, or
   * `needs_input`: it stopped for want of an approval nobody gave). */
  failed: number;
  /** Still at work, or waiting for an approval (`ask`). */
  running: number;
  /** When the newest of them started. */
  lastRun: string;
}

/** What the count reads of a run: an execution's branch (core/run-view.ts, which names who started it from here). */
interface Execution {
  workflowId: string;
  startedAt: string;
  status: 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';
  answer?: DelegateEnvelope['status'];
}

/**
 * Counts the runs each schedule and trigger started since `since`. A branch is one execution; should a run have more
 * (task-mode runs do not continue as new today), it counts once, by its first start, its outcome its last one's.
 */
export function runsByStarter(branches: Execution[], since: string): StarterStats[] {
  const runs = new Map<string, { first: Execution; last: Execution }>();
  for (const b of branches) {
    if (!startedBy(b.workflowId)) continue;
    const seen = runs.get(b.workflowId);
    if (!seen) runs.set(b.workflowId, { first: b, last: b });
    else {
      if (b.startedAt < seen.first.startedAt) seen.first = b;
      if (b.startedAt > seen.last.startedAt) seen.last = b;
    }
  }
  const byStarter = new Map<string, StarterStats>();
  for (const [workflowId, { first, last }] of runs) {
    if (first.startedAt < since) continue;
    const by = startedBy(workflowId)!;
    const key = `${by.source}:${by.name}`;
    const s = byStarter.get(key) ?? { ...by, runs: 0, ok: 0, failed: 0, running: 0, lastRun: first.startedAt };
    byStarter.set(key, s);
    s.runs++;
    s[outcomeOf(last)]++;
    if (first.startedAt > s.lastRun) s.lastRun = first.startedAt;
  }
  return [...byStarter.values()].sort((a, b) => a.source.localeCompare(b.source) || a.name.localeCompare(b.name));
}

function outcomeOf(b: Execution): 'ok' | 'failed' | 'running' {
  if (b.status === 'running' || b.status === 'waiting') return 'running';
  if (b.status === 'done') return !b.answer || b.answer === 'ok' ? 'ok' : 'failed';
  return 'failed';
}
