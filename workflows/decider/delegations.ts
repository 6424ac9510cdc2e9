// A conversation's AskAgent calls and the delegates running them: which calls start (within the depth and
// parallel limits), what each delegate waits for from the user, and the answers going down. Pure, like Conversation,
// which owns one of these and asks it; the workflow starts the children and hands their envelopes back.
import { invalid, invalidArgs } from '../../core/check-args';
import type { DelegateAnswer, DelegateStart, Effect } from '../../core/effects';
import type { DelegationLimits, ToolCall, ToolOutcome, ToolSpec } from '../../core/types';
import type {
  AgentGoalInput,
  ConfirmDecision,
  DelegateEnvelope,
  DelegateReport,
  DelegateWait,
  Delegation,
} from '../../core/conversation-types';
import { ASK_AGENT, askedGoalId } from '../../core/builtin-specs';
import type { AnsweredQuestion, ToolQuestion } from '../../core/tool-questions';

/** The conversation at the top of a delegate's tree: each delegation appends `/<n>-<goal id>` to its parent's id. */
export function userConversationOf(delegateId: string, depth: number): string {
  return delegateId.split('/').slice(0, -depth).join('/');
}

/** Limits for runs whose settings predate delegation (they never delegate; this keeps the types whole). */
export const DEFAULT_DELEGATION_LIMITS: DelegationLimits = { maxDepth: 3, maxParallel: 5, timeoutSeconds: 3_600 };

interface Running extends Delegation {
  /** What the delegate waits for from the user, as it last reported. */
  wait: DelegateWait | null;
  /** Whether that wait was shown to this conversation's user (it is shown once this conversation's own calls are done). */
  shown: boolean;
}

export class Delegations {
  private readonly byCall = new Map<string, Running>();
  /** Answers for delegates, sent by the main loop in order. */
  private readonly outbox: Effect<'answer_delegate'>[] = [];

  constructor(
    private readonly workflowId: string,
    /** Delegates started so far in the whole conversation (child ids stay unique across continue-as-new). */
    public started: number,
  ) {}

  /** Whether this call was handed to a delegate. */
  has(callId: string): boolean {
    return this.byCall.has(callId);
  }

  /** Every delegation of this run, for the tree view. */
  list(): Delegation[] {
    return [...this.byCall.values()].map(({ wait: _wait, shown: _shown, ...d }) => d);
  }

  /** Pure: AskAgent calls to start, answers to send, or (once this conversation's own calls are done) a wait to show. */
  hasWork(calls: ToolCall[]): boolean {
    if (this.outbox.length > 0) return true;
    if (calls.some((c) => c.tool === ASK_AGENT && !this.byCall.has(c.id))) return true;
    const ownLeft = calls.some((c) => !this.byCall.has(c.id));
    return !ownLeft && [...this.byCall.values()].some((d) => d.wait !== null && !d.shown);
  }

  /** Whether any of `calls` is with a delegate still at work. */
  running(calls: ToolCall[]): boolean {
    return calls.some((c) => this.byCall.has(c.id) && this.byCall.get(c.id)!.state !== 'done');
  }

  /** Whether answers are waiting to be sent down. */
  hasAnswersToSend(): boolean {
    return this.outbox.length > 0;
  }

  /** The next answer to send down, if any. */
  takeAnswer(): Effect<'answer_delegate'> | null {
    return this.outbox.shift() ?? null;
  }

  /**
   * Decides the AskAgent calls not yet started: arguments checked, depth and parallel limits applied. Returns the
   * delegates to start and the calls refused (with the outcome the LLM gets).
   */
  plan(
    calls: ToolCall[],
    spec: ToolSpec | undefined,
    depth: number,
    limits: DelegationLimits,
    owner: string | undefined,
  ): { start: DelegateStart[]; refused: [ToolCall, ToolOutcome][] } {
    const start: DelegateStart[] = [];
    const refused: [ToolCall, ToolOutcome][] = [];
    const runningNow = [...this.byCall.values()].filter((d) => d.state !== 'done').length;
    for (const call of calls) {
      const unfit: ToolOutcome | null = spec
        ? invalidArgs(spec.inputSchema, call.args)
        : invalid(['this agent has no delegates']);
      if (unfit) {
        refused.push([call, unfit]);
      } else if (depth + 1 > limits.maxDepth) {
        refused.push([
          call,
          toolError(
            `delegation is already ${depth} deep; the limit is ${limits.maxDepth} (DELEGATE_MAX_DEPTH): do this yourself or tell the user`,
          ),
        ]);
      } else if (runningNow + start.length >= limits.maxParallel) {
        refused.push([
          call,
          toolError(
            `at most ${limits.maxParallel} agents can work at once (DELEGATE_MAX_PARALLEL); ask again once these have answered`,
          ),
        ]);
      } else {
        const goalId = askedGoalId(call.args);
        const task = String(call.args.task);
        const childId = `${this.workflowId}/${++this.started}-${goalId}`;
        const input: AgentGoalInput = {
          goalId,
          task: { task, parentId: this.workflowId, callId: call.id, depth: depth + 1 },
          ...(owner ? { owner } : {}),
        };
        start.push({ call, childId, input });
        this.byCall.set(call.id, {
          callId: call.id,
          childId,
          goalId,
          agentName: goalId,
          task,
          state: 'running',
          wait: null,
          shown: false,
        });
      }
    }
    return { start, refused };
  }

  report(report: DelegateReport): void {
    const d = this.byCall.get(report.callId);
    if (!d || d.state === 'done') return;
    if (report.agentName) d.agentName = report.agentName;
    const same = JSON.stringify(report.waiting) === JSON.stringify(d.wait);
    if (same) return;
    d.wait = report.waiting;
    d.shown = false;
    d.state = !report.waiting ? 'running' : report.waiting.kind === 'approval' ? 'awaiting_approval' : 'asking';
  }

  /** The next delegate wait to show this conversation's user; marks it shown. */
  showNext(): { delegation: Delegation; wait: DelegateWait } | null {
    const d = [...this.byCall.values()].find((x) => x.wait !== null && !x.shown);
    if (!d) return null;
    d.shown = true;
    return { delegation: d, wait: d.wait! };
  }

  /** The delegate wait shown to the user and not answered yet (approvals before questions, oldest first). */
  waitShown(): DelegateWait | null {
    const asked = this.toolQuestionShown();
    return this.approvalShown() ?? this.questionShown() ?? (asked ? { kind: 'tool_question', question: asked } : null);
  }

  /** A delegate's tool's question shown to the user, naming the delegate its answer goes down to. */
  toolQuestionShown(): ToolQuestion | null {
    const d = this.shownWith('tool_question');
    if (!d) return null;
    const { question } = d.wait as DelegateWait & { kind: 'tool_question' };
    return { ...question, delegate: question.delegate ?? { agentName: d.agentName, childId: d.childId } };
  }

  /** The user's answer to the delegate's tool's question shown: it goes down to that delegate. */
  answerToolQuestion(answered: AnsweredQuestion): void {
    const d = this.shownWith('tool_question');
    if (d) this.send(d, { question: answered });
  }

  approvalShown(): (DelegateWait & { kind: 'approval' }) | null {
    const d = this.shownWith('approval');
    if (!d) return null;
    const wait = d.wait as DelegateWait & { kind: 'approval' };
    return {
      ...wait,
      approval: {
        ...wait.approval,
        delegate: wait.approval.delegate ?? { agentName: d.agentName, childId: d.childId },
      },
    };
  }

  questionShown(): (DelegateWait & { kind: 'question' }) | null {
    const d = this.shownWith('question');
    return d
      ? {
          ...(d.wait as DelegateWait & { kind: 'question' }),
          agentName: (d.wait as { agentName?: string }).agentName ?? d.agentName,
        }
      : null;
  }

  /** The user's answer to the approval shown: it goes down to that delegate. */
  answerApproval(decision: ConfirmDecision): void {
    const d = this.shownWith('approval');
    if (d) this.send(d, { confirm: decision });
  }

  /** The user's message answering the question shown. */
  answerQuestion(text: string): void {
    const d = this.shownWith('question');
    if (d) this.send(d, { reply: text });
  }

  /** The delegate's envelope arrived; false when its call was decided already (cancelled with the turn). */
  finish(callId: string, envelope: DelegateEnvelope): boolean {
    const d = this.byCall.get(callId);
    if (!d || d.state === 'done') return false;
    d.state = 'done';
    d.wait = null;
    d.envelope = envelope;
    return true;
  }

  private shownWith(kind: DelegateWait['kind']): Running | undefined {
    return [...this.byCall.values()].find((d) => d.state !== 'done' && d.shown && d.wait?.kind === kind);
  }

  private send(d: Running, answer: DelegateAnswer): void {
    d.wait = null;
    d.state = 'running';
    this.outbox.push({ kind: 'answer_delegate', childId: d.childId, answer });
  }
}

function toolError(error: string): ToolOutcome {
  return { status: 'tool_error', error };
}
