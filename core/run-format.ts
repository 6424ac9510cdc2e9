// The run view's words and figures: durations, token counts, costs, a step's one line of facts, a branch's totals, and
// where a step sits on its turn's timeline. Pure (unit-tested in test/unit/run-format.test.ts); the clock is passed in
// so a running step's time grows between two views from the server.
import type { RunBranch, RunStatus, RunStep, RunStepKind, RunTotals, RunTurn, RunView } from './run-view';
import { spanMs } from './run-view';
import type { Usage } from './types';
import { formatMs, formatUsd } from './format';

const NUMBER = new Intl.NumberFormat('en-US');

export const STATUS_TEXT: Record<RunStatus, string> = {
  running: 'running',
  waiting: 'waiting for you',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const KIND_TEXT: Record<RunStepKind, string> = {
  model: 'model',
  tool: 'tool',
  search: 'search',
  draft: 'draft',
  approval: 'approval',
  question: 'question',
  delegate: 'agent',
};

export function formatTokens(n: number): string {
  return `${NUMBER.format(n)} ${n === 1 ? 'token' : 'tokens'}`;
}

/** `1,234 tokens · $0.0012`: the cost only where the worker knew a price. */
export function usageText(u: Usage): string {
  return u.costUsd === undefined
    ? formatTokens(u.totalTokens)
    : `${formatTokens(u.totalTokens)} · ${formatUsd(u.costUsd)}`;
}

export function isOpen(status: RunStatus): boolean {
  return status === 'running' || status === 'waiting';
}

/** How long it has taken: to its end, or until `now` while it runs. */
export function elapsedMs(x: { startedAt: string; endedAt?: string }, now: number): number {
  return x.startedAt ? spanMs(x.startedAt, x.endedAt, now) : 0;
}

/** The time figures of totals, counted on the page (the rest, tokens and calls, are the server's). */
export interface Times {
  durationMs: number;
  waitMs: number;
}

/**
 * A turn's time and its waits for the user (its delegates' included), counted to `now` while the turn is open: the
 * server counts them to when it last read each workflow, which for a waiting one may be a while ago.
 */
export function turnTimes(turn: RunTurn, now: number): Times {
  let waitMs = 0;
  for (const s of turn.steps) {
    if (s.kind === 'approval' || s.kind === 'question') waitMs += elapsedMs(s, now);
    if (s.branch) waitMs += branchTimes(s.branch, now).waitMs;
  }
  const durationMs = isOpen(turn.status) ? elapsedMs(turn, now) : turn.totals.durationMs;
  return { durationMs, waitMs };
}

/** A branch's: the sum of its turns' (the time it was at work, not the time between turns). */
export function branchTimes(branch: RunBranch, now: number): Times {
  const t = { durationMs: 0, waitMs: 0 };
  for (const turn of branch.turns) {
    const own = turnTimes(turn, now);
    t.durationMs += own.durationMs;
    t.waitMs += own.waitMs;
  }
  return t;
}

/** A turn's or branch's totals in one line: time, tokens, cost, calls, time spent waiting for the user. */
export function totalsParts(totals: RunTotals, times: Times): string[] {
  const calls = (n: number, what: string) => `${NUMBER.format(n)} ${what}${n === 1 ? '' : 's'}`;
  return [
    formatMs(times.durationMs),
    usageText(totals.usage),
    ...(totals.modelCalls ? [calls(totals.modelCalls, 'model call')] : []),
    ...(totals.toolCalls ? [calls(totals.toolCalls, 'tool call')] : []),
    ...(times.waitMs ? [`${formatMs(times.waitMs)} waiting for you`] : []),
  ];
}

/** A step's facts after its name: the model, tokens and cost, its time, the attempt when retried. */
export function stepParts(step: RunStep, now: number): string[] {
  return [
    ...(step.model ? [modelName(step.model)] : []),
    ...(step.usage && step.usage.totalTokens ? [usageText(step.usage)] : []),
    formatMs(elapsedMs(step, now)),
    ...(step.attempt && step.attempt > 1 ? [`attempt ${step.attempt}`] : []),
  ];
}

/** What a model step was shown of the owner's memories: `recalled 2 memories` (the ids follow, each a link on the page). */
export function recalledHead(count: number): string {
  return `recalled ${NUMBER.format(count)} ${count === 1 ? 'memory' : 'memories'}`;
}

/** The same with the ids, as a terminal prints it: `recalled 2 memories: mem_…, mem_…`. */
export function recalledText(ids: string[]): string {
  return `${recalledHead(ids.length)}: ${ids.join(', ')}`;
}

/** `provider:model` as configured, a scripted model's file by its name only (`scripted:/tmp/x/script.json`). */
export function modelName(model: string): string {
  const m = /^([\w-]+):(\/.*)$/.exec(model);
  return m ? `${m[1]}:${m[2]!.split('/').pop()}` : model;
}

/** What a turn is called: the user's prompt; turn 0 is the conversation's start, or a delegate's task. */
export function turnTitle(turn: RunTurn, delegate: boolean): string {
  if (turn.index > 0) return turn.prompt || `Turn ${turn.index}`;
  return delegate ? `Task: ${turn.prompt}` : 'Start';
}

/** Where a step lies on its turn's timeline (the turn took `turnMs`), in percent: at least a sliver, to be seen. */
export function timelineSpan(
  step: RunStep,
  turn: RunTurn,
  turnMs: number,
  now: number,
): { left: number; width: number } {
  const total = Math.max(1, turnMs);
  const left = clamp(((Date.parse(step.startedAt) - Date.parse(turn.startedAt)) / total) * 100);
  const width = Math.max(0.8, clamp((elapsedMs(step, now) / total) * 100));
  return { left: Math.min(left, 100 - width), width };
}

/** Every branch of the tree, the root first. */
export function branchesOf(root: RunBranch): RunBranch[] {
  const out: RunBranch[] = [root];
  for (const turn of root.turns) for (const step of turn.steps) if (step.branch) out.push(...branchesOf(step.branch));
  return out;
}

/** Nothing in the tree will change any more: every workflow in it has closed. */
export function hasEnded(view: RunView): boolean {
  return branchesOf(view.root).every((b) => b.endedAt !== undefined && !isOpen(b.status));
}

/** Something is still running or waiting (the clock on the page needs to tick). */
export function isLive(view: RunView): boolean {
  return branchesOf(view.root).some(
    (b) => isOpen(b.status) || b.turns.some((t) => isOpen(t.status) || t.steps.some((s) => isOpen(s.status))),
  );
}

function clamp(pct: number): number {
  return Math.min(100, Math.max(0, pct));
}
