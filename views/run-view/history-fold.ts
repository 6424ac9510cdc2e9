// One workflow's history folded into its run: turns (a prompt each, or the start), and in each the model calls, tool
// calls, waits for the user and delegates, with their times, attempts, usage and outcome. Pure: the reader
// (run-reader.ts) fetches the events, decodes payloads through `decode`, and fills in delegates' branches.
import type { temporal } from '@temporalio/proto';
import type { ConversationState } from '../../core/conversation-types';
import type { ToolCall } from '../../core/types';
import type { RunBranch, RunStep, RunTurn } from '../../core/run-view';
import { emptyTotals, spanMs, stepTotals, turnsTotals } from '../../core/run-view';
import { startedBy } from '../../core/run-starter';
import {
  activityStep,
  clip,
  closeStep,
  decision,
  isHousekeeping,
  isModelCall,
  isoTime,
  modelAnswer,
  promptOf,
  remoteAnswer,
  STATES,
  statusOf,
  takeAsked,
  toolAnswer,
  workflowEnd,
} from './steps';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Payloads = temporal.api.common.v1.IPayloads | null | undefined;

/** What an activity still running is doing now (from DescribeWorkflowExecution's pending activities). */
export interface PendingAttempt {
  attempt: number;
  lastFailure?: string;
}

export interface FoldContext {
  workflowId: string;
  runId: string;
  decode(payloads: Payloads): unknown[];
  /** By activity id. */
  pending?: Map<string, PendingAttempt>;
  now?: number;
}

export function foldHistory(events: HistoryEvent[], ctx: FoldContext): RunBranch {
  const now = ctx.now ?? Date.now();
  const first = ctx.decode.bind(ctx);
  const one = (p: Payloads): unknown => first(p)[0];
  const branch: RunBranch = {
    workflowId: ctx.workflowId,
    runId: ctx.runId,
    goalId: '',
    agentName: '',
    state: null,
    status: 'running',
    startedAt: '',
    turns: [],
    totals: emptyTotals(),
  };
  const starter = startedBy(ctx.workflowId);
  if (starter) branch.startedBy = starter;
  const byActivity = new Map<string, RunStep>(); // by scheduled event id
  const byChild = new Map<string, RunStep>(); // by initiated event id
  const goalLookups = new Set<string>(); // resolveGoal's scheduled event ids: they name the agent
  const questions = new Map<string, RunStep>(); // by update id
  let turn = null as RunTurn | null;
  let asked: ToolCall[] = []; // the last model answer's tool calls, for approvals and queries
  let waiting = null as RunStep | null; // the approval being waited for
  const prompts: { text: string; at: string }[] = []; // prompts received, not yet taken up
  let delegate = false; // a delegate's run (task mode): waiting for the user is waiting for an answer

  const newTurn = (prompt: string, at: string): RunTurn => {
    if (turn && turn.status === 'running') turn.status = 'done';
    turn = {
      index: branch.turns.length,
      prompt,
      goalId: branch.goalId,
      agentName: branch.agentName,
      status: 'running',
      startedAt: at,
      steps: [],
      totals: emptyTotals(),
    };
    branch.turns.push(turn);
    return turn;
  };
  const add = (step: RunStep, at: string): RunStep => {
    (turn ?? newTurn('', at)).steps.push(step);
    return step;
  };
  const endWait = (at: string, detail: string): void => {
    // Runs recorded before AgentState was kept: the wait began when the model proposed the call.
    if (!waiting && turn && branch.state === null) {
      const proposed = turn.steps.filter((s) => s.kind === 'model' && s.endedAt).at(-1)?.endedAt ?? at;
      const names = asked.map((c) => c.tool).join(', ') || 'a tool call';
      waiting = add({ id: `w${at}`, kind: 'approval', label: names, status: 'waiting', startedAt: proposed }, at);
    }
    if (!waiting) return;
    waiting.status = 'done';
    waiting.endedAt = at;
    waiting.detail = detail;
    waiting = null;
  };

  let taskStartedAt = ''; // the latest workflow task's start: where its local activities ran
  for (const e of events) {
    const at = isoTime(e);
    if (e.workflowTaskStartedEventAttributes) taskStartedAt = at;
    if (e.workflowExecutionStartedEventAttributes) {
      const input = one(e.workflowExecutionStartedEventAttributes.input) as {
        goalId?: string;
        task?: { task: string };
        carried?: { pendingPrompts?: { text: string }[] };
      };
      branch.goalId = input?.goalId ?? '';
      branch.startedAt = at;
      delegate = !!input?.task;
      // A run continued from another starts where that one stopped: no greeting, its first turn is the next prompt.
      if (!input?.carried) newTurn(input?.task?.task ?? '', at);
      for (const p of input?.carried?.pendingPrompts ?? []) prompts.push({ text: p.text, at });
    } else if (e.activityTaskScheduledEventAttributes) {
      const a = e.activityTaskScheduledEventAttributes;
      const type = a.activityType?.name ?? '';
      const input = one(a.input);
      // A prompt's turn begins when the model is first asked about it (prompts wait their turn in a queue). One
      // taken up without a model call of its own (an answer passed down to a delegate) belongs to the turn it answered.
      const taken = isModelCall(type) ? prompts.findIndex((p) => p.text === promptOf(input)) : -1;
      if (taken >= 0) {
        const next = prompts.splice(0, taken + 1).at(-1)!;
        newTurn(next.text, next.at);
      }
      if (type === 'resolveGoal') goalLookups.add(String(e.eventId));
      if (isHousekeeping(type)) continue;
      const step = activityStep(type, input, a.activityId ?? '', at, asked);
      if (step) byActivity.set(String(e.eventId), add(step, at));
    } else if (e.activityTaskStartedEventAttributes) {
      const a = e.activityTaskStartedEventAttributes;
      const step = byActivity.get(String(a.scheduledEventId));
      if (step) {
        step.attempt = a.attempt ?? 1;
        if (a.lastFailure?.message) step.lastFailure = a.lastFailure.message;
      }
    } else if (e.activityTaskCompletedEventAttributes) {
      const a = e.activityTaskCompletedEventAttributes;
      const result = one(a.result);
      if (goalLookups.has(String(a.scheduledEventId))) {
        const goal = (result as { goal?: { id: string; agentName: string } })?.goal;
        if (goal) [branch.goalId, branch.agentName] = [goal.id, goal.agentName];
        // The turn is the agent's that answers it: after a switch, the new one.
        if (goal && turn) [turn.goalId, turn.agentName] = [goal.id, goal.agentName];
      }
      const step = byActivity.get(String(a.scheduledEventId));
      if (!step) continue;
      closeStep(step, 'done', at);
      if (step.kind === 'model') asked = modelAnswer(step, result);
      else if (step.branch) remoteAnswer(step, result);
      else if (step.kind !== 'draft' || step.label.endsWith('check the draft')) toolAnswer(step, result);
    } else if (e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes) {
      const a = (e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes)!;
      const step = byActivity.get(String(a.scheduledEventId));
      if (!step) continue;
      closeStep(step, 'failed', at);
      step.error = a.failure?.cause?.message || a.failure?.message || 'failed';
      step.detail = [step.endpoint, step.error].filter(Boolean).join(' · ');
    } else if (e.activityTaskCanceledEventAttributes) {
      const step = byActivity.get(String(e.activityTaskCanceledEventAttributes.scheduledEventId));
      if (step) closeStep(step, 'cancelled', at);
    } else if (e.markerRecordedEventAttributes?.markerName === 'core_local_activity') {
      const details = e.markerRecordedEventAttributes.details ?? {};
      const data = one(details['data']) as LocalActivityData;
      const type = data?.activity_type ?? '';
      if (type !== 'searchTools') {
        // A native tool run as a local activity (PATCHES.localNativeTools).
        if (isHousekeeping(type) || isModelCall(type)) continue;
        const step = activityStep(type, undefined, `l${data.activity_id ?? e.eventId}`, at, asked);
        if (!step) continue;
        // Run inside the workflow task that asked for it (the marker's own schedule time is the workflow's clock).
        step.startedAt = taskStartedAt || at;
        step.attempt = data.attempt ?? 1;
        add(step, at);
        const failure = e.markerRecordedEventAttributes.failure;
        closeStep(step, failure ? 'failed' : 'done', timeOf(data.complete_time) ?? at);
        if (failure) step.error = failure.cause?.message || failure.message || 'failed';
        else toolAnswer(step, one(details['result']));
        continue;
      }
      const call = takeAsked(asked, 'SearchTools');
      const found = (one(details['result']) as unknown[] | undefined)?.length ?? 0;
      const query = typeof call?.args['query'] === 'string' ? `"${call.args['query']}": ` : '';
      add(
        {
          id: `l${data.activity_id ?? e.eventId}`,
          kind: 'search',
          label: 'SearchTools',
          detail: `${query}${found} found`,
          status: 'done',
          startedAt: at,
          endedAt: at,
          attempt: data.attempt ?? 1,
        },
        at,
      );
    } else if (e.workflowExecutionUpdateAcceptedEventAttributes) {
      const req = e.workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest;
      const name = req?.input?.name ?? '';
      const args = first(req?.input?.args);
      if (name === 'prompt') prompts.push({ text: String(args[0] ?? ''), at });
      else if (name === 'confirmAndWait') endWait(at, decision(args[0]));
      else if (name === 'toolQuestion') {
        const q = args[0] as { tool?: string; message?: string };
        const id = req?.meta?.updateId ?? String(e.eventId);
        const step = add(
          { id: `q${id}`, kind: 'question', label: q?.tool ?? 'a tool', status: 'waiting', startedAt: at },
          at,
        );
        if (q?.message) step.detail = clip(q.message);
        questions.set(id, step);
      }
    } else if (e.workflowExecutionUpdateCompletedEventAttributes) {
      const step = questions.get(e.workflowExecutionUpdateCompletedEventAttributes.meta?.updateId ?? '');
      if (step) {
        const answer = one(e.workflowExecutionUpdateCompletedEventAttributes.outcome?.success) as { action?: string };
        closeStep(step, 'done', at);
        step.detail = answer?.action ?? step.detail;
      }
    } else if (e.workflowExecutionSignaledEventAttributes) {
      const s = e.workflowExecutionSignaledEventAttributes;
      if (s.signalName === 'userPrompt') prompts.push({ text: String(one(s.input) ?? ''), at });
      else if (s.signalName === 'confirm') endWait(at, decision(one(s.input)));
    } else if (e.upsertWorkflowSearchAttributesEventAttributes) {
      const field = e.upsertWorkflowSearchAttributesEventAttributes.searchAttributes?.indexedFields?.['AgentState'];
      const state = field ? one({ payloads: [field] }) : undefined;
      if (typeof state !== 'string' || !STATES.has(state)) continue;
      branch.state = state as ConversationState;
      // A delegate's approval is relayed through its parent: the wait shows in the delegate's branch, not here.
      const relayed = turn?.steps.some((s) => s.kind === 'delegate' && s.status === 'running');
      if (state === 'awaiting_approval' && !waiting && !relayed) {
        const names = asked.map((c) => c.tool).join(', ') || 'a tool call';
        waiting = add({ id: `w${e.eventId}`, kind: 'approval', label: names, status: 'waiting', startedAt: at }, at);
      } else if (turn && state === 'waiting_for_user' && (relayed || delegate)) {
        // A delegate of ours asks the user, or this delegate does (its one task goes on once answered).
        turn.status = 'waiting';
      } else if (turn && (state === 'waiting_for_user' || state === 'ended')) {
        turn.status = 'done';
        turn.endedAt = at;
      } else if (turn && state === 'working' && turn.status !== 'running') {
        turn.status = 'running';
        delete turn.endedAt;
      }
    } else if (e.startChildWorkflowExecutionInitiatedEventAttributes) {
      const c = e.startChildWorkflowExecutionInitiatedEventAttributes;
      const input = one(c.input) as { goalId?: string; task?: { task: string } };
      const step = add(
        {
          id: c.workflowId ?? String(e.eventId),
          kind: 'delegate',
          label: input?.goalId ?? 'delegate',
          detail: clip(input?.task?.task ?? ''),
          status: 'running',
          startedAt: at,
        },
        at,
      );
      takeAsked(asked, 'AskAgent');
      byChild.set(String(e.eventId), step);
    } else if (e.childWorkflowExecutionStartedEventAttributes) {
      const c = e.childWorkflowExecutionStartedEventAttributes;
      const step = byChild.get(String(c.initiatedEventId));
      if (step && c.workflowExecution?.runId) step.runId = c.workflowExecution.runId;
    } else if (e.childWorkflowExecutionCompletedEventAttributes) {
      const c = e.childWorkflowExecutionCompletedEventAttributes;
      const step = byChild.get(String(c.initiatedEventId));
      const envelope = (one(c.result) as { envelope?: { status: string } } | undefined)?.envelope;
      if (step) closeStep(step, envelope && envelope.status !== 'ok' ? statusOf(envelope.status) : 'done', at);
    } else {
      const closed =
        e.childWorkflowExecutionFailedEventAttributes ??
        e.childWorkflowExecutionTimedOutEventAttributes ??
        e.childWorkflowExecutionTerminatedEventAttributes ??
        e.childWorkflowExecutionCanceledEventAttributes ??
        e.startChildWorkflowExecutionFailedEventAttributes;
      if (closed) {
        const step = byChild.get(String(closed.initiatedEventId));
        if (step) closeStep(step, e.childWorkflowExecutionCanceledEventAttributes ? 'cancelled' : 'failed', at);
        continue;
      }
      const end = workflowEnd(e);
      if (end) {
        branch.status = end;
        branch.endedAt = at;
        branch.state = 'ended';
        // A task-mode run's result carries its answer's envelope: whether it did what it was asked.
        const done = e.workflowExecutionCompletedEventAttributes;
        const answer =
          done && (one(done.result) as { envelope?: { status?: RunBranch['answer'] } } | undefined)?.envelope?.status;
        if (answer) branch.answer = answer;
        for (const t of branch.turns) if (t.status !== 'done') [t.status, t.endedAt] = [end, t.endedAt ?? at];
      }
    }
  }
  applyPending(byActivity, ctx.pending);
  finish(branch, now);
  return branch;
}
function applyPending(steps: Map<string, RunStep>, pending: Map<string, PendingAttempt> | undefined): void {
  if (!pending) return;
  for (const step of steps.values()) {
    const now = step.status === 'running' ? pending.get(step.id.slice(1)) : undefined;
    if (!now) continue;
    step.attempt = now.attempt;
    if (now.lastFailure) step.lastFailure = now.lastFailure;
  }
}

/** Statuses and totals once every event is in: a turn waits while a step of its waits, totals add up. */
function finish(branch: RunBranch, now: number): void {
  for (const t of branch.turns) {
    if (t.status === 'running' && t.steps.some((s) => s.status === 'waiting')) t.status = 'waiting';
    const end = t.endedAt ?? (t.status === 'running' || t.status === 'waiting' ? undefined : lastEnd(t));
    t.totals = { ...stepTotals(t.steps, now), durationMs: spanMs(t.startedAt, end, now) };
  }
  const last = branch.turns.at(-1);
  if (branch.status === 'running') {
    // A conversation between turns is done with what it was asked (its state says it waits for the next prompt).
    const idle = branch.state === 'ended' || (branch.state === 'waiting_for_user' && last?.status === 'done');
    branch.status = last && last.status !== 'done' ? last.status : idle ? 'done' : 'running';
  }
  branch.totals = turnsTotals(branch.turns);
}

function lastEnd(t: RunTurn): string | undefined {
  return t.steps.reduce<string | undefined>(
    (end, s) => (s.endedAt && (!end || s.endedAt > end) ? s.endedAt : end),
    undefined,
  );
}

/** What a local activity's marker says of it (the SDK's core writes it). */
interface LocalActivityData {
  activity_type?: string;
  activity_id?: string;
  attempt?: number;
  complete_time?: { seconds?: number; nanos?: number };
}

function timeOf(t: LocalActivityData['complete_time']): string | undefined {
  return t?.seconds === undefined
    ? undefined
    : new Date(t.seconds * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
}
