// The steps of a run as history events show them: which activity is which kind of step (model, tool, search, draft),
// what a model or a tool answered in a line, and the small readings the fold needs (times, decisions, outcomes).
import type { temporal } from '@temporalio/proto';
import type { ChatMessage, ToolCall, ToolOutcome, Usage } from '../../core/types';
import type { PlanResult, PromptVerdict } from '../../core/activity-types';
import { emptyTotals, type RunStatus, type RunStep } from '../../core/run-view';
import { addUsage } from '../../core/usage';
import { activityStepOf } from '../../core/activity-steps';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Whether an activity type is a model call (planTurn, vetAndPlan, validatePrompt, summarizeConversation). */
export function isModelCall(type: string | null | undefined): boolean {
  return activityStepOf(type)?.kind === 'model';
}

/** Activities a conversation runs for itself (settings, goal lookups, catalogs): not steps of a turn. */
export function isHousekeeping(type: string | null | undefined): boolean {
  return activityStepOf(type)?.kind === 'housekeeping';
}
export const STATES = new Set<string>(['waiting_for_user', 'working', 'awaiting_approval', 'ended']);
const DETAIL_CHARS = 120;

/** The step an activity is, or null for a builtin's activity the model did not ask for (the picker's own listing). */
export function activityStep(
  type: string,
  input: unknown,
  activityId: string,
  at: string,
  asked: ToolCall[],
): RunStep | null {
  const step: RunStep = { id: `a${activityId}`, kind: 'tool', label: type, status: 'running', startedAt: at };
  const req = input as { name?: string; version?: number; ref?: { server?: string; api?: string } } | undefined;
  const known = activityStepOf(type);
  switch (known?.kind) {
    case 'model':
    case 'draft':
      return { ...step, kind: known.kind, label: known.label };
    case 'endpoint': {
      takeAsked(asked, req?.name ?? '');
      const endpoint = req?.ref?.server ?? req?.ref?.api;
      return { ...step, label: req?.name ?? type, ...(endpoint ? { endpoint, detail: endpoint } : {}) };
    }
    case 'made': {
      const madeVersion = req?.version ?? 0;
      return { ...step, label: req?.name ?? type, madeVersion, detail: `made tool v${madeVersion}` };
    }
    case 'builtin':
      return takeAsked(asked, known.tool) ? { ...step, label: known.tool } : null;
    case 'remote':
      return remoteStep(step, input, at, asked);
    default:
      // A native tool's activity, named after the tool (housekeeping is skipped before it gets here).
      takeAsked(asked, type);
      return step;
  }
}

/** The prompt a model call is about: the one it checks, or the user's message its transcript ends with. */
export function promptOf(input: unknown): string | undefined {
  const req = input as { prompt?: string; transcript?: { tail?: ChatMessage[] }; messages?: ChatMessage[] };
  if (typeof req?.prompt === 'string') return req.prompt;
  const last = (req?.transcript?.tail ?? req?.messages)?.at(-1);
  return last?.kind === 'user' ? last.text : undefined;
}

/** A model step's answer: its usage, and what it asked for (or said). */
export function modelAnswer(step: RunStep, result: unknown): ToolCall[] {
  if (typeof result === 'string') return []; // a summary
  const verdict = result as Partial<PromptVerdict> & Partial<PlanResult>;
  const plan: Partial<PlanResult> | undefined = verdict.plan ?? (verdict.toolCalls ? verdict : undefined);
  const usage = [verdict.usage, verdict.plan?.usage].filter((u): u is Usage => !!u).reduce(addUsage);
  step.usage = usage;
  const model = verdict.plan?.model ?? verdict.model;
  if (model) step.model = model;
  // vetAndPlan recalls for the plan it makes, not for the check: the ids are the plan's.
  if (plan?.memories?.length) step.memories = [...plan.memories];
  if (verdict.valid === false) step.detail = `does not fit: ${clip(verdict.reply ?? '')}`;
  // proposeMemories, at the conversation's end: how many it proposed for the user to keep.
  const proposed = (result as { proposed?: unknown }).proposed;
  if (Array.isArray(proposed))
    step.detail = `proposed ${proposed.length} ${proposed.length === 1 ? 'memory' : 'memories'}`;
  const calls = plan?.toolCalls ?? [];
  step.detail ??= calls.length ? `asks for ${calls.map((c) => c.tool).join(', ')}` : clip(plan?.text ?? '');
  return [...calls];
}

export function toolAnswer(step: RunStep, result: unknown): void {
  const outcome = result as (ToolOutcome & { spent?: Usage }) | undefined;
  if (outcome?.spent) step.usage = outcome.spent;
  if (!outcome?.status || outcome.status === 'ok') return;
  step.status = 'failed';
  const why: string =
    outcome.status === 'tool_error'
      ? outcome.error
      : outcome.status === 'rejected'
        ? outcome.reason
        : outcome.problems.join('; ');
  step.error = clip(why);
  step.detail = [step.detail, step.error].filter(Boolean).join(' · ');
}

export function closeStep(step: RunStep, status: RunStatus, at: string): void {
  step.status = status;
  step.endedAt = at;
  // A remote agent's task, drawn as a branch of its own (remoteStep): it ends with its step.
  if (step.branch) {
    const remote = step.branch;
    remote.status = status;
    remote.endedAt = at;
    for (const turn of remote.turns) [turn.status, turn.endedAt] = [status, at];
    remote.totals.durationMs = remote.turns[0]!.totals.durationMs = Date.parse(at) - Date.parse(remote.startedAt);
  }
}

/**
 * An AskAgent call to a remote A2A agent (the askRemoteAgent activity): a delegate step, its branch the remote task
 * with one turn (the task), its status and times; what the remote agent did inside is its own.
 */
function remoteStep(step: RunStep, input: unknown, at: string, asked: ToolCall[]): RunStep {
  takeAsked(asked, 'AskAgent');
  const req = input as { agent?: string; args?: { task?: unknown } } | undefined;
  const goalId = `a2a:${req?.agent ?? ''}`;
  const agentName = `${req?.agent ?? 'remote agent'} (A2A)`;
  const task = String(req?.args?.task ?? '');
  const turn = {
    index: 0,
    prompt: task,
    goalId,
    agentName,
    status: 'running' as const,
    startedAt: at,
    steps: [],
    totals: emptyTotals(),
  };
  const branch = {
    workflowId: goalId,
    runId: '',
    goalId,
    agentName,
    state: null,
    status: 'running' as const,
    startedAt: at,
    turns: [turn],
    totals: emptyTotals(),
  };
  return { ...step, kind: 'delegate', label: agentName, detail: clip(task), endpoint: goalId, branch };
}

/** A remote agent's task's end, from the call's outcome: its state, and the task's id on the remote side. */
export function remoteAnswer(step: RunStep, result: unknown): void {
  const outcome = result as
    { status?: string; result?: { status?: string; remote?: { taskId?: string; state?: string } } } | undefined;
  if (outcome?.status !== 'ok') {
    toolAnswer(step, result);
    if (step.status === 'failed' && step.endedAt) closeStep(step, 'failed', step.endedAt);
    return;
  }
  const remote = outcome.result?.remote;
  if (remote?.taskId) step.detail = `${step.detail ? `${step.detail} · ` : ''}task ${remote.taskId}: ${remote.state}`;
  const envelope = outcome.result?.status;
  const status = !envelope || envelope === 'ok' ? 'done' : statusOf(envelope);
  if (status !== 'done' && step.endedAt) closeStep(step, status, step.endedAt);
}

export function takeAsked(asked: ToolCall[], tool: string): ToolCall | undefined {
  const i = asked.findIndex((c) => c.tool === tool);
  return i < 0 ? undefined : asked.splice(i, 1)[0];
}

export function decision(d: unknown): string {
  const c = d as { approve?: boolean; reason?: string } | undefined;
  return c?.approve ? 'approved' : `declined${c?.reason ? `: ${clip(c.reason)}` : ''}`;
}

export function statusOf(envelopeStatus: string): RunStatus {
  return envelopeStatus === 'cancelled' ? 'cancelled' : envelopeStatus === 'needs_input' ? 'done' : 'failed';
}

export function workflowEnd(e: HistoryEvent): RunStatus | null {
  if (e.workflowExecutionCompletedEventAttributes || e.workflowExecutionContinuedAsNewEventAttributes) return 'done';
  if (e.workflowExecutionCanceledEventAttributes) return 'cancelled';
  if (
    e.workflowExecutionFailedEventAttributes ||
    e.workflowExecutionTimedOutEventAttributes ||
    e.workflowExecutionTerminatedEventAttributes
  )
    return 'failed';
  return null;
}

export function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS - 1)}…` : line;
}

export function isoTime(e: HistoryEvent): string {
  const t = e.eventTime;
  if (!t) return new Date(0).toISOString();
  return new Date(Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
}
