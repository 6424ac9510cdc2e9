// The tool calls of one planned step, decided one by one in order: the builtins look first (AskAgent starts all of
// the step's delegates at once, and they run beside the other calls), then each call is checked, put to the user
// when its policy asks, and run. The step is over when every call has an outcome; the turn then plans again.
import { askedGoalId } from '../../core/builtin-specs';
import { invalid, invalidArgs } from '../../core/check-args';
import type { Effect, QueuedPrompt } from '../../core/effects';
import type { ToolCall, ToolOutcome, ToolSpec, Usage } from '../../core/types';
import type { DelegateEnvelope } from '../../core/conversation-types';
import { ZERO_USAGE } from '../../core/usage';
import type { Builtin, BuiltinContext, Decision } from './builtins/builtin';
import { needsApproval, unattendedDecision, type Approvals } from './approvals';
import type { Budget } from './budget';

/** What the step needs of its conversation besides what builtins may do. */
export interface StepHost extends BuiltinContext {
  readonly approvals: Approvals;
  readonly budget: Budget;
  /** A prompt is queued. */
  hasPrompt(): boolean;
  /** The user sent a message or switched goal while the step waits for them. */
  movedOn(): boolean;
  /** The next queued prompt, taken up as the one the agent now answers; undefined when none. */
  takePrompt(): QueuedPrompt | undefined;
  /** The step ended without results to plan on (its calls were declined): the next prompt starts a new turn. */
  skipPlan(): void;
  /** Every call has its outcome: the turn plans again. */
  stepDone(): void;
}

export class ToolStep {
  /** The step's calls without an outcome yet. */
  calls: ToolCall[] = [];

  constructor(
    private readonly convo: StepHost,
    private readonly builtins: Record<string, Builtin>,
  ) {}

  start(calls: ToolCall[]): void {
    this.calls = [...calls];
  }

  /** The call is decided: its outcome goes into the transcript for the LLM. */
  record(call: ToolCall, outcome: ToolOutcome): void {
    this.convo.log.push({ kind: 'tool', call, outcome });
    this.calls = this.calls.filter((c) => c.id !== call.id);
    this.convo.approvals.settled(call.id);
    if (this.calls.length === 0) this.convo.stepDone();
  }

  /** Pure: whether next() would find something to do. */
  hasWork(): boolean {
    const { delegations, approvals, taskMode } = this.convo;
    if (delegations.hasWork(this.calls)) return true;
    // Only delegates at work: a new message answers the question one asked, or declines the approval one awaits.
    if (this.own().length === 0) return this.convo.hasPrompt() && delegations.waitShown() !== null;
    return !(approvals.awaiting() || taskMode.asking()) || this.convo.movedOn();
  }

  /** The next effect for the first pending call; null: wait for the user; undefined: decided here, look again. */
  next(): Decision {
    const answer = this.convo.delegations.takeAnswer();
    if (answer) return answer;
    // Arguments that were not JSON go back to the model at once, before anything runs or is put to the user.
    const malformed = this.calls.find((c) => c.malformed);
    if (malformed) {
      this.record(malformed, invalid([malformed.malformed!]));
      return undefined;
    }
    for (const builtin of Object.values(this.builtins)) {
      const decided = builtin.beforeCalls ? builtin.beforeCalls(this.calls) : null;
      if (decided !== null) return decided;
    }
    // Delegates run on their own; the step's other calls go one by one, in order.
    const [call] = this.own();
    if (!call) return this.whileDelegatesRun();
    if (this.convo.taskMode.asking(call.id)) return this.answerQuestion(call);
    if (this.convo.approvals.waitsFor(call.id)) {
      if (!this.convo.movedOn()) return null;
      // The user moved on instead of answering: the proposed calls are declined, with the reason.
      this.decline('the user sent a new message instead of approving');
      return undefined;
    }
    const spec = this.convo.offer.find(call.tool);
    if (!spec) {
      this.record(call, invalid([this.convo.offer.unknownTool(call.tool)]));
      return undefined;
    }
    const builtin = spec.kind === 'builtin' ? this.builtins[spec.name] : undefined;
    return builtin?.decide ? builtin.decide(call, spec) : this.approved(call, spec, builtin);
  }

  /** Declines the calls not yet run; delegates at work go on, and the step waits for them. */
  decline(reason: string): void {
    for (const call of this.own()) this.record(call, { status: 'rejected', reason });
    this.convo.taskMode.settled(this.calls);
    // The new prompt starts a new turn; do not plan on the declined calls first.
    if (this.calls.length === 0) this.convo.skipPlan();
  }

  /** A delegate finished (or failed, or was cancelled): its envelope is its AskAgent call's result. */
  applyEnvelope(callId: string, envelope: DelegateEnvelope, byModel?: Record<string, Usage>): void {
    const call = this.calls.find((c) => c.id === callId);
    if (!call || !this.convo.delegations.finish(callId, envelope)) return;
    this.convo.budget.spend(envelope.usage, askedGoalId(call.args), byModel);
    this.record(call, { status: 'ok', result: envelope });
  }

  /** The turn was cancelled: delegates at work are cancelled with it (the workflow cancels them); their calls say so. */
  cancelDelegates(calls = this.calls.filter((c) => this.convo.delegations.has(c.id))): void {
    const envelope: DelegateEnvelope = {
      status: 'cancelled',
      summary: 'Cancelled by the user before it finished.',
      usage: ZERO_USAGE,
    };
    for (const call of calls) this.applyEnvelope(call.id, envelope);
  }

  /** Whether any call is with a delegate still at work. */
  delegatesRunning(): boolean {
    return this.convo.delegations.running(this.calls);
  }

  /** The calls this conversation runs itself (not handed to a delegate). */
  private own(): ToolCall[] {
    return this.calls.filter((c) => !this.convo.delegations.has(c.id));
  }

  /** A call that changes the world: checked, put to the user when its policy asks, then run. */
  private approved(call: ToolCall, spec: ToolSpec, builtin: Builtin | undefined): Decision {
    const decision = this.convo.approvals.decisionFor(call.id);
    if (decision?.approve === false) {
      this.record(call, { status: 'rejected', reason: decision.reason });
      return undefined;
    }
    if (decision?.approve && decision.args) call.args = decision.args;
    const invalid = invalidArgs(spec.inputSchema, call.args);
    if (invalid) {
      this.record(call, invalid);
      return undefined;
    }
    const first = decision ? undefined : builtin?.beforeApproval?.(call, spec);
    if (first) return first;
    if (!decision && needsApproval(spec, this.convo.goal, this.convo.settings)) {
      // A run nobody watches (a schedule's) answers by its policy; otherwise the user is asked.
      const unattended = unattendedDecision(this.convo.input.run, spec, this.convo.goal);
      if (unattended?.approve === false) {
        this.record(call, { status: 'rejected', reason: unattended.reason });
        return undefined;
      }
      if (!unattended) {
        this.convo.approvals.ask(call);
        this.convo.pause();
        return null;
      }
    }
    return builtin?.run ? builtin.run(call) : ({ kind: 'run_tool', call, spec } satisfies Effect);
  }

  /** Only delegates are at work: show what one waits for, or take the user's message as its answer. */
  private whileDelegatesRun(): Decision {
    const { delegations, log } = this.convo;
    const shown = delegations.showNext();
    if (shown) {
      if (shown.wait.kind === 'question') {
        log.say(`${shown.wait.agentName ?? shown.delegation.agentName} asks: ${shown.wait.question}`);
      }
      this.convo.pause();
      return null;
    }
    if (!this.convo.hasPrompt()) return null;
    if (delegations.approvalShown()) {
      // As with this agent's own calls: a new message instead of an answer declines; the message waits its turn.
      delegations.answerApproval({ approve: false, reason: 'the user sent a new message instead of approving' });
      return undefined;
    }
    if (!delegations.questionShown()) return null;
    const prompt = this.convo.takePrompt()!;
    log.user(prompt);
    delegations.answerQuestion(prompt.text);
    return undefined;
  }

  /** Task mode: the user's answer to this delegate's AskUser question is the call's result. */
  private answerQuestion(call: ToolCall): Decision {
    const prompt = this.convo.takePrompt();
    if (!prompt) return null;
    this.convo.taskMode.answered();
    this.record(call, { status: 'ok', result: { answer: prompt.text } });
    return undefined;
  }
}
