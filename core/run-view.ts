// A conversation's run as the run view shows it: its turns, each a list of steps (model calls, tool calls, waits for
// the user, delegates with their own turns), with status, times, attempts, tokens and cost. Read from the workflows'
// own histories (views/run-view/), never kept anywhere else; the registry's figures are sums over these.
import type { ConversationState, DelegateEnvelope } from './conversation-types';
import type { RunStarter } from './run-starter';
import type { Usage } from './types';
import { addUsage } from './usage';

/** `waiting`: for the user (an approval, a tool's question, an answer a delegate needs). */
export type RunStatus = 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';

/**
 * `model`: one model call (its retries are attempts); `tool`: a tool's activity (native, MCP, HTTP API, made, a builtin's own);
 * `search`: SearchTools; `draft`: CreateAgent/CreateTool checking or writing a draft; `approval` and `question`: the
 * time a call waited for the user; `delegate`: an AskAgent call, with the delegate's own run as `branch`.
 */
export type RunStepKind = 'model' | 'tool' | 'search' | 'draft' | 'approval' | 'question' | 'delegate';

export interface RunStep {
  /** Stable within its branch across updates: the activity id, the child's workflow id, or an event id. */
  id: string;
  kind: RunStepKind;
  /** What ran: the model's task, the tool's name, the delegate agent's name, the call waited on. */
  label: string;
  /** One line more: the MCP server or HTTP API, the tools the model asked for, the answer's words, the query. */
  detail?: string;
  status: RunStatus;
  /** ISO times: scheduled (so a retry's backoff counts), and closed. */
  startedAt: string;
  endedAt?: string;
  /** The attempt running or the one that finished (more than 1: retried), and why the one before failed. */
  attempt?: number;
  lastFailure?: string;
  usage?: Usage;
  /** The model that answered (from workers that say it). */
  model?: string;
  /** A model step's: the ids of the memories its call was shown (recalled before planning), when it was shown any. */
  memories?: string[];
  /** A tool step's MCP server or HTTP API; a made tool's version. */
  endpoint?: string;
  madeVersion?: number;
  /** A failed step's words: the tool's error, the refusal, or why the activity failed. */
  error?: string;
  /** A delegate's workflow run, once it has started (its branch is read from there). */
  runId?: string;
  branch?: RunBranch;
}

export interface RunTotals {
  durationMs: number;
  usage: Usage;
  modelCalls: number;
  toolCalls: number;
  /** Time spent waiting for the user (approvals, questions). */
  waitMs: number;
}

export interface RunTurn {
  /** 0 is the conversation's start (its greeting, or a delegate's task); 1 the first prompt, … */
  index: number;
  prompt: string;
  /** The agent that answered it (a conversation may switch agents: ChangeGoal, the picker). */
  goalId: string;
  agentName: string;
  status: RunStatus;
  startedAt: string;
  endedAt?: string;
  steps: RunStep[];
  /** This turn's own steps and, for AskAgent, everything its delegates did. */
  totals: RunTotals;
}

export interface RunBranch {
  workflowId: string;
  runId: string;
  goalId: string;
  agentName: string;
  /** The conversation's own state (AgentState), when its workflow says it. */
  state: ConversationState | null;
  status: RunStatus;
  startedAt: string;
  endedAt?: string;
  turns: RunTurn[];
  totals: RunTotals;
  /** The schedule or webhook trigger that started it (core/run-starter.ts); absent: a person, or a delegate. */
  startedBy?: RunStarter;
  /** A run in task mode (a delegate's, a schedule's, a trigger's) that completed: its answer's status. */
  answer?: DelegateEnvelope['status'];
  /** Where to see this workflow in the Temporal UI, when the API knows the UI's address. */
  temporalUrl?: string;
}

export interface RunView {
  root: RunBranch;
  /** When it was read. */
  at: string;
}

export const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

export function emptyTotals(): RunTotals {
  return { durationMs: 0, usage: { ...NO_USAGE }, modelCalls: 0, toolCalls: 0, waitMs: 0 };
}

/** Milliseconds between two ISO times, the second `now` when absent (a step still running). */
export function spanMs(startedAt: string, endedAt: string | undefined, now: number): number {
  return Math.max(0, (endedAt ? Date.parse(endedAt) : now) - Date.parse(startedAt));
}

/** What a list of steps adds up to, delegates' branches included (their time overlaps the AskAgent step's). */
export function stepTotals(steps: RunStep[], now: number): Omit<RunTotals, 'durationMs'> {
  const t = emptyTotals();
  for (const s of steps) {
    if (s.usage) t.usage = addUsage(t.usage, s.usage);
    if (s.kind === 'model') t.modelCalls++;
    if (s.kind === 'tool' || s.kind === 'search' || s.kind === 'draft') t.toolCalls++;
    if (s.kind === 'approval' || s.kind === 'question') t.waitMs += spanMs(s.startedAt, s.endedAt, now);
    if (s.branch) {
      const b = s.branch.totals;
      t.usage = addUsage(t.usage, b.usage);
      t.modelCalls += b.modelCalls;
      t.toolCalls += b.toolCalls;
      t.waitMs += b.waitMs;
    }
  }
  const { durationMs: _d, ...rest } = t;
  return rest;
}

/** A branch's totals: its turns' (each with its delegates' already in), durations being the turns' active time. */
export function turnsTotals(turns: RunTurn[]): RunTotals {
  const t = emptyTotals();
  for (const turn of turns) {
    t.usage = addUsage(t.usage, turn.totals.usage);
    t.modelCalls += turn.totals.modelCalls;
    t.toolCalls += turn.totals.toolCalls;
    t.waitMs += turn.totals.waitMs;
    t.durationMs += turn.totals.durationMs;
  }
  return t;
}
