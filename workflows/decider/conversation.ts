// The conversation's decisions, as a pure class: which effect comes next and how each effect's result changes the
// state. It is the only decider; the workflow performs effects (schedules activities) and hands results back. It
// owns the turn (prompt queue, the step's tool calls, planning) and asks collaborators that own the rest: the
// message log, approvals, budget, tool offer, task mode, delegations, replies, and the builtin tools (../builtins).
// Unit tests drive this class without Temporal.
import { cancelledCall } from '../../core/failures';
import { MAX_PROMPT_CHARS } from '../../core/messages';
import type { Appliers, Effect, EffectKind, QueuedPrompt, ResultOf, StepFailure } from '../../core/effects';
import type * as T from '../../core/types';
import { moveGoal } from '../builtins/change-goal';
import { createBuiltins } from '../builtins';
import { Approvals, confirmRefusal } from './approvals';
import { Budget, budgetStopText } from './budget';
import { carriedState, splitForCarry } from './carry';
import { Delegations } from './delegations';
import { MessageLog } from './message-log';
import { Replies } from './replies';
import { TaskMode } from './task-mode';
import { ToolOffer } from './tool-offer';
import { ToolStep, type StepHost } from './tool-step';
import { expiryOf, waitLimitOf, type WaitLimit } from './waits';
import type { RunVersions } from '../versions';

export type { RunVersions } from '../versions';
export type { WaitLimit } from './waits';

export class Conversation implements StepHost {
  // Set by begin(): the first activities read them, but handlers must exist before the first await.
  settings!: T.Settings;
  goal!: T.Goal;
  agents: T.AgentSummary[] = [];
  started = false;
  summary: string;
  ended = false;
  endedBy: T.Transcript['endedBy'] = 'user';
  turnsThisRun = 0;
  readonly runs: number;
  readonly log: MessageLog;
  /** The replies update handlers wait for. */
  readonly replies = new Replies();
  readonly approvals = new Approvals();
  readonly budget: Budget;
  readonly offer = new ToolOffer();
  readonly taskMode: TaskMode;
  /** This conversation's AskAgent calls and their delegates. */
  readonly delegations: Delegations;
  /** The builtin tools by name; made first, as the appliers below include theirs. */
  private readonly builtins = createBuiltins(this);
  /** The tool calls of the step being carried out. */
  private readonly step = new ToolStep(this, this.builtins.table);

  private queue: QueuedPrompt[];
  private promptSeq: number;
  private needsPlan = false;
  private stepsThisTurn = 0;
  private activePrompt = 0;
  private goalChange: string | null = null;
  private waitsExpire = false;
  /** The user asked to stop the running turn; the next step stops it (after the in-flight effect returns). */
  private cancelRequested = false;
  /** A prompt was taken up and its turn has not ended (it may be waiting for an approval). */
  private turnOpen = false;
  /** The user's first prompt of this run (not a starter): the conversation's title in Temporal's list. */
  private firstPrompt: string | null = null;
  /** Prompts are checked while the turn is planned (RunVersions.oneModelWait). */
  private vetWhilePlanning = false;
  /** An effect that continues the one just applied (a builtin tool's second step); it comes before anything else. */
  private followUp: Effect | null = null;

  /** `workflowId` names the delegates this conversation starts (`<workflowId>/<n>-<goal>`). */
  constructor(
    readonly input: Partial<T.AgentGoalInput> = {},
    workflowId = 'conversation',
  ) {
    const carried = input.carried;
    this.log = new MessageLog(carried?.messages, carried?.firstSeq);
    this.summary = carried?.summary ?? '';
    this.budget = new Budget(carried);
    this.queue = carried ? [...carried.pendingPrompts] : [];
    this.promptSeq = carried?.promptSeq ?? 0;
    this.runs = (carried?.runs ?? 0) + 1;
    this.delegations = new Delegations(workflowId, carried?.delegations ?? 0);
    this.taskMode = new TaskMode(input.task);
  }

  get messages(): T.ChatMessage[] {
    return this.log.messages;
  }
  get usage(): T.Usage {
    return this.budget.usage;
  }
  get usageByGoal(): Record<string, T.Usage> {
    return this.budget.usageByGoal;
  }
  get tools(): T.ToolSpec[] {
    return this.offer.tools;
  }
  get catalog(): T.CatalogSummary | null {
    return this.offer.catalog;
  }

  /** Starts the conversation once settings and goal are loaded; a new one opens with the goal's starter prompt. */
  begin(settings: T.Settings, resolved: T.ResolvedGoal, versions: RunVersions = { refreshToolsEachTurn: true }): void {
    this.settings = { ...settings, historyEventBudget: this.input.historyEventBudget || settings.historyEventBudget };
    this.offer.refreshEachTurn = versions.refreshToolsEachTurn;
    this.offer.searchThreshold = settings.toolSearchThreshold ?? 0;
    this.waitsExpire = versions.cancelAndExpire ?? false;
    this.vetWhilePlanning = versions.oneModelWait ?? false;
    this.budget.enforced = versions.budgets ?? false;
    this.takeGoal(resolved);
    this.started = true;
    // A delegate has no greeting: the parent's task is its first prompt, and it is not checked against the goal.
    if (this.input.task) this.queue.unshift({ id: ++this.promptSeq, text: this.input.task.task });
    else if (!this.input.carried) {
      this.queue.unshift({ id: ++this.promptSeq, text: this.goal.starterPrompt, starter: true });
    }
    // The tools were resolved just now: the first turn needs no second look.
    this.offer.checked(this.queue[0]?.id ?? 0);
    // In multi-goal mode the planner is told which agents exist from the first turn on.
    if (settings.multiGoal && !this.input.task) this.followUp = { kind: 'list_agents' };
  }

  // ---- inputs from handlers -------------------------------------------------------------------------------

  /** Queues a user prompt; `watch` keeps its reply for an update handler to collect. */
  enqueuePrompt(text: string, watch = false): number {
    const id = ++this.promptSeq;
    this.queue.push({ id, text });
    if (watch) this.replies.watch(id);
    return id;
  }

  /** Why a prompt is refused (the update's validator throws it; a signal's is logged), or null. */
  promptRefusal(text: unknown): string | null {
    if (this.ended) return 'The conversation has ended; start a new one.';
    if (typeof text !== 'string' || !text.trim()) return 'The prompt is empty.';
    if (text.length > MAX_PROMPT_CHARS) {
      return `The prompt has ${text.length} characters; the limit is ${MAX_PROMPT_CHARS}.`;
    }
    return null;
  }

  /** Returns why a confirm is refused, or null when it was taken. */
  confirm(decision: T.ConfirmDecision): string | null {
    const refusal = this.confirmRefusal(decision);
    if (refusal !== null) return refusal;
    if (this.approvals.awaiting()) this.approvals.answer(decision);
    // A delegate's call: the answer goes down to it.
    else this.delegations.answerApproval(decision);
    return null;
  }

  confirmRefusal(decision: T.ConfirmDecision): string | null {
    if (this.approvals.awaiting()) return this.approvals.refusal(decision, this.ended);
    const asked = this.delegations.approvalShown();
    if (asked) return confirmRefusal({ call: asked.approval.call, decision: null }, decision, this.ended);
    return this.approvals.refusal(decision, this.ended);
  }

  /** A delegate started or stopped waiting for the user (its delegateReport signal). */
  delegateReport(report: T.DelegateReport): void {
    if (!this.ended) this.delegations.report(report);
  }

  /** A delegate finished (or failed, or was cancelled): its envelope is its AskAgent call's result. */
  applyEnvelope(callId: string, envelope: T.DelegateEnvelope): void {
    this.step.applyEnvelope(callId, envelope);
  }

  /** Task mode: what this delegate waits for from the user, as its parent shows it; null when it waits for nothing. */
  delegateWait(): T.DelegateWait | null {
    if (this.ended) return null;
    return this.taskMode.wait(this.pendingApproval(), this.delegations.questionShown());
  }

  endChat(): void {
    if (this.ended) return;
    this.ended = true;
    this.endedBy = 'user';
    this.pause();
  }

  /** Why a cancel is refused (no turn is running or about to start), or null. */
  cancelRefusal(): string | null {
    if (this.ended) return 'the conversation has ended';
    if (this.cancelRequested) return 'the turn is already being cancelled';
    if (!this.turnOpen && this.queue.length === 0) return 'nothing is running: the agent is waiting for you';
    return null;
  }

  /** Stops the running turn; true when taken. The workflow cancels the effect in flight, if any. */
  cancelTurn(): boolean {
    if (this.cancelRefusal()) return false;
    this.cancelRequested = true;
    return true;
  }

  requestGoalChange(goalId: string): void {
    if (!this.ended) this.goalChange = goalId;
  }

  // ---- queries --------------------------------------------------------------------------------------------

  /** What the conversation is about, for lists: its first prompt, cut to `max` characters. */
  title(max: number): string | null {
    const text = this.firstPrompt?.replace(/\s+/g, ' ').trim();
    if (!text) return null;
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  }

  pendingApproval(): T.PendingApproval | null {
    const call = this.approvals.call;
    if (!this.approvals.awaiting() || !call) return this.delegations.approvalShown()?.approval ?? null;
    const spec = this.offer.find(call.tool);
    const description = (spec && this.builtins.table[spec.name]?.approvalText) ?? spec?.description ?? '';
    return { call, tool: call.tool, description };
  }

  status(): T.ConversationState {
    if (this.ended) return 'ended';
    if (!this.started) return 'working';
    if (this.pendingApproval() && this.queue.length === 0 && !this.goalChange) return 'awaiting_approval';
    if (this.hasWork()) return 'working';
    // Delegates at work: the conversation is working unless one of them asked the user something.
    return this.step.delegatesRunning() && !this.delegations.questionShown() ? 'working' : 'waiting_for_user';
  }

  /** Pure: whether nextEffect() would find something to do. Safe inside condition(). */
  hasWork(): boolean {
    if (this.ended || this.cancelRequested) return true;
    if (!this.started) return false;
    if (this.followUp) return true;
    if (this.step.calls.length > 0) return this.step.hasWork();
    return this.goalChange !== null || this.needsPlan || this.queue.length > 0;
  }

  /** Continue-as-new happens only between turns (no tool call, plan, approval or waiting update in flight), and
   * only after this run did some work. */
  mayContinueAsNew(): boolean {
    const betweenTurns = this.step.calls.length === 0 && !this.needsPlan && !this.approvals.open() && !this.followUp;
    // A delegate's one task is short: it never continues as new (its parent waits on this run).
    const idle = !this.cancelRequested && !this.replies.waiting() && this.turnsThisRun > 0;
    return betweenTurns && !this.input.task && idle;
  }

  // ---- the loop's two verbs -------------------------------------------------------------------------------

  /** Decides the next effect, applying purely local transitions (arg checks, rejections) on the way; null when
   * there is nothing to do until the user (or a client) acts. */
  nextEffect(): Effect | null {
    for (;;) {
      if (this.ended) return null;
      if (this.cancelRequested) {
        this.stopTurn();
        continue;
      }
      if (this.followUp) {
        const effect = this.followUp;
        this.followUp = null;
        return effect;
      }
      if (this.step.calls.length > 0) {
        const effect = this.step.next();
        if (effect !== undefined) return effect;
        continue;
      }
      if (this.goalChange !== null) {
        const goalId = this.goalChange;
        this.goalChange = null;
        return { kind: 'resolve_goal', goalId, why: 'switch' };
      }
      if (this.needsPlan) {
        const effect = this.planEffect();
        if (effect) return effect;
        continue;
      }
      const next = this.queue[0];
      if (!next) return null;
      if (this.offer.needsRefresh(this.goal, next.id)) {
        return { kind: 'resolve_goal', goalId: this.goal.id, why: 'refresh', promptId: next.id };
      }
      const effect = this.startTurn(this.queue.shift()!);
      if (effect) return effect;
    }
  }

  /** Takes in an effect's result: the compiler pairs each effect kind with its result type. */
  apply<K extends EffectKind>(effect: Effect<K>, result: ResultOf<K>): void {
    this.appliers[effect.kind](effect, result);
  }

  /** The effect in flight was cancelled before it finished (the user cancelled the turn): record what is known. */
  applyCancelled(effect: Effect): void {
    if (effect.kind === 'validate') this.log.user(effect.prompt);
    if (effect.kind === 'run_tool')
      this.record(effect.call, { status: 'tool_error', error: cancelledCall(effect.spec) });
    if (effect.kind === 'start_delegates') this.step.cancelDelegates(effect.delegates.map((d) => d.call));
    const call = 'call' in effect ? effect.call : undefined;
    const outcome = call && this.builtins.table[call.tool]?.cancelled?.(effect);
    if (call && outcome) this.record(call, outcome);
    // The agents a multi-goal run starts with are not part of any turn: list them again.
    if (effect.kind === 'list_agents' && !effect.call) this.followUp = effect;
  }

  /** How long the coming wait for the user may last before it expires; null: no limit (or an older run). */
  waitLimit(): WaitLimit | null {
    if (!this.waitsExpire) return null;
    const delegateWaitShown = !this.approvals.awaiting() && this.delegations.waitShown() !== null;
    return waitLimitOf(this.settings, this.status(), { asking: this.taskMode.asking(), delegateWaitShown });
  }

  /** A wait ran out: an unanswered approval is declined; an idle conversation ends, keeping its transcript. */
  expire(limit: WaitLimit): void {
    const question = this.taskMode.asking() ? this.taskMode.questionText() : null;
    const expiry = expiryOf(limit, question, this.approvals.call?.tool);
    if (expiry.ends) {
      this.log.note(expiry.note);
      this.ended = true;
      this.endedBy = 'idle';
      return this.pause();
    }
    this.step.decline(expiry.decline);
    this.log.say(expiry.say);
    this.endTurn('needs_input');
  }

  private readonly appliers: Appliers = {
    validate: (effect, verdict) => this.applyVerdict(effect.prompt, verdict),
    vet_and_plan: (_effect, verdict) => this.applyVettedPlan(verdict),
    plan: (_effect, plan) => this.applyPlan(plan),
    run_tool: (effect, outcome) => this.record(effect.call, outcome),
    resolve_goal: (effect, resolved) => {
      if (effect.why === 'refresh') return this.applyToolRefresh(effect.promptId, resolved);
      if (effect.why === 'switch') return this.applyGoalSwitch(resolved);
      moveGoal(this, effect, resolved);
    },
    // Another delegate's approval or question is still shown: the user is needed again now, so the update that sent
    // this answer returns with that wait, not when the whole step is over.
    answer_delegate: () => {
      if (this.delegations.waitShown() && !this.delegations.hasAnswersToSend()) this.pause();
    },
    ...this.builtins.appliers,
  };

  // ---- state carried over and handed back -----------------------------------------------------------------

  /** Splits history for continue-as-new: older messages to summarise, recent whole turns to keep. */
  splitForCarry(): { older: T.ChatMessage[]; recent: T.ChatMessage[] } {
    return splitForCarry(this.messages, this.settings.recentMessagesKept);
  }

  /** What continue-as-new needs: the older messages to summarise (null when none), and the next run's input. */
  prepareCarry(): { summarize: T.SummarizeRequest | null; nextRun(summary: string): T.AgentGoalInput } {
    const { older, recent } = this.splitForCarry();
    const { owner, historyEventBudget } = this.input;
    return {
      summarize: older.length
        ? { goal: this.goal, previousSummary: this.summary, transcript: this.log.ref(older.length) }
        : null,
      nextRun: (summary) => ({ goalId: this.goal.id, owner, historyEventBudget, carried: this.carry(summary, recent) }),
    };
  }

  carry(summary: string, recent: T.ChatMessage[]): T.CarriedState {
    const { usage, usageByGoal } = this.budget;
    const { firstSeq, length: held } = this.log;
    const counters = { promptSeq: this.promptSeq, runs: this.runs, delegations: this.delegations.started };
    return carriedState({ summary, recent, held, firstSeq, queue: this.queue, usage, usageByGoal, ...counters });
  }

  /** Messages from sequence number `since` on, and the state, for live views (feedQuery). */
  feed(since = 0): T.ConversationFeed {
    return {
      goalId: this.goal?.id ?? this.input.goalId ?? '',
      owner: this.input.owner ?? null,
      state: this.status(),
      first: this.log.firstSeq,
      next: this.log.next,
      messages: this.log.since(since),
      pendingApproval: this.pendingApproval(),
      usage: this.usage,
      usageByGoal: this.usageByGoal,
    };
  }

  transcript(): T.Transcript {
    const { goal, endedBy, summary, messages, usage } = this;
    const envelope = this.taskMode.envelope;
    return { goalId: goal.id, endedBy, summary, messages, usage, ...(envelope ? { envelope } : {}) };
  }

  // ---- what builtins may do (BuiltinContext) ----------------------------------------------------------------

  record(call: T.ToolCall, outcome: T.ToolOutcome): void {
    this.step.record(call, outcome);
  }

  followWith(effect: Effect): void {
    this.followUp = effect;
  }

  /** The agent now needs the user: publish the reply for update handlers and clients. */
  pause(): void {
    // A delegate's question still open is what the user must answer, whatever was said since.
    const asked = this.approvals.awaiting() ? null : this.delegations.questionShown();
    const reply =
      asked && !this.delegations.approvalShown()
        ? `${asked.agentName} asks: ${asked.question}`
        : this.log.latestAgentText();
    this.replies.publish({
      promptId: this.activePrompt,
      reply,
      pendingToolCall: this.pendingApproval(),
      ended: this.ended,
    });
  }

  finish(status: T.DelegateEnvelope['status'], summary?: string): void {
    if (this.input.task) this.taskMode.finish(status, summary, this.log, this.usage);
    this.step.start([]);
    this.needsPlan = false;
    this.turnOpen = false;
    this.ended = true;
    this.endedBy = 'goal_complete';
    this.pause();
  }

  switchGoal(resolved: T.ResolvedGoal, note: boolean): void {
    this.takeGoal(resolved);
    if (note) this.log.note(`Switched to the agent "${resolved.goal.agentName}" (goal ${resolved.goal.id}).`);
  }

  awayFromPicker(): boolean {
    return this.settings.multiGoal && this.goal.id !== this.settings.pickerGoalId;
  }

  // ---- what the step may do (StepHost) ----------------------------------------------------------------------

  hasPrompt(): boolean {
    return this.queue.length > 0;
  }

  movedOn(): boolean {
    return this.queue.length > 0 || this.goalChange !== null;
  }

  takePrompt(): QueuedPrompt | undefined {
    const prompt = this.queue.shift();
    if (prompt) this.activePrompt = prompt.id;
    return prompt;
  }

  skipPlan(): void {
    this.needsPlan = false;
  }

  stepDone(): void {
    this.needsPlan = true;
  }

  // ---- internals ------------------------------------------------------------------------------------------

  /** The turn plans its next step, unless the budget is spent or the step limit reached. */
  private planEffect(): Effect | null {
    const spent = this.budget.overBudget(this.goal, this.settings);
    if (spent) {
      this.stopForBudget(spent);
      return null;
    }
    if (this.stepsThisTurn >= (this.goal.settings?.maxToolSteps ?? this.settings.maxToolStepsPerTurn)) {
      this.log.say(
        `I have taken ${this.stepsThisTurn} steps on this request without finishing. Tell me how you would like to continue.`,
      );
      this.endTurn('needs_input');
      return null;
    }
    return { kind: 'plan', request: this.planRequest() };
  }

  /** Takes up a prompt: the effect that checks or plans it, or null when its turn needs no model call first. */
  private startTurn(prompt: QueuedPrompt): Effect | null {
    if (!prompt.starter) this.firstPrompt ??= prompt.text;
    this.turnOpen = true;
    this.activePrompt = prompt.id;
    const spent = this.budget.overBudget(this.goal, this.settings);
    if (spent) {
      this.log.user(prompt);
      this.stopForBudget(spent);
      return null;
    }
    this.stepsThisTurn = 0;
    this.offer.newTurn();
    this.turnsThisRun++;
    // A delegate's task comes from its parent agent, not from a user: nothing to check.
    const vet = this.settings.validatePrompts && !prompt.starter && !this.input.task;
    if (vet && this.vetWhilePlanning) {
      // The planner needs the prompt in its transcript; a refusal then follows it, as it always has.
      this.log.user(prompt);
      return { kind: 'vet_and_plan', prompt, request: { ...this.planRequest(), prompt: prompt.text } };
    }
    if (vet) {
      const request = { goal: this.goal, transcript: this.log.ref(), prompt: prompt.text, agents: this.agents };
      return { kind: 'validate', prompt, request };
    }
    this.log.user(prompt);
    this.needsPlan = true;
    return null;
  }

  private applyVerdict(prompt: QueuedPrompt, verdict: T.PromptVerdict | StepFailure): void {
    this.log.user(prompt);
    // A failed validation call fails open: the planner still sees the prompt.
    if ('failed' in verdict || verdict.valid) {
      this.needsPlan = true;
      if (!('failed' in verdict)) this.spend(verdict.usage);
      return;
    }
    this.spend(verdict.usage);
    this.log.say(verdict.reply);
    this.endTurn();
  }

  /** The verdict on a prompt already in the transcript, and the plan made meanwhile (dropped when it does not fit). */
  private applyVettedPlan(verdict: T.PromptVerdict | StepFailure): void {
    // Failing open, as validation always has: the turn is planned on its own.
    if ('failed' in verdict) {
      this.needsPlan = true;
      return;
    }
    this.spend(verdict.usage);
    if (!verdict.valid) {
      this.log.say(verdict.reply);
      this.endTurn();
    } else if (verdict.plan) {
      this.applyPlan(verdict.plan);
    } else {
      this.needsPlan = true;
    }
  }

  private applyPlan(result: T.PlanResult | StepFailure): void {
    this.needsPlan = false;
    if ('failed' in result) {
      this.log.say(`Sorry, I could not get an answer from the language model (${result.failed}). Please try again.`);
      this.endTurn('error');
      return;
    }
    this.stepsThisTurn++;
    this.spend(result.usage);
    this.log.push({ kind: 'agent', text: result.text, toolCalls: result.toolCalls, usage: result.usage });
    if (result.toolCalls.length > 0) this.step.start(result.toolCalls);
    else this.endTurn();
  }

  private applyGoalSwitch(result: T.ResolvedGoal | StepFailure): void {
    if ('failed' in result) {
      this.log.note(`Could not switch agent: ${result.failed}`);
      this.pause();
      return;
    }
    this.switchGoal(result, true);
    // A switch asked for by a client starts the new agent the way a new conversation starts.
    this.queue.unshift({ id: ++this.promptSeq, text: result.goal.starterPrompt, starter: true });
  }

  private applyToolRefresh(promptId: number, result: T.ResolvedGoal | StepFailure): void {
    this.offer.checked(promptId);
    // Discovery failed after retries: keep serving the tools we had.
    if ('failed' in result) return;
    const changed = this.offer.refresh(result, this.taskMode.adapt);
    if (changed) this.log.note(changed);
  }

  /** The goal and its tools, as task mode adapts them. */
  private takeGoal(resolved: T.ResolvedGoal): void {
    this.goal = resolved.goal;
    this.offer.take(resolved, this.taskMode.adapt);
  }

  /** Counts what a model call spent, for the goal now on. */
  private spend(usage: T.Usage): void {
    this.budget.spend(usage, this.goal.id);
  }

  /** The budget is used (checked before each model call, when no tool call is pending): the conversation ends,
   * its transcript kept; a delegate's parent gets an error envelope saying why. */
  private stopForBudget(spent: string): void {
    const text = budgetStopText(spent);
    this.log.say(text);
    this.finish('error', text);
    this.endedBy = 'budget';
  }

  /** The turn is over; a delegate's turn is its task, so it ends with an envelope of `outcome`. */
  private endTurn(outcome: T.DelegateEnvelope['status'] = 'ok'): void {
    if (this.input.task && !this.ended) return this.finish(outcome);
    this.needsPlan = false;
    this.turnOpen = false;
    this.pause();
  }

  private planRequest(): T.PlanRequest {
    const { goal, summary, agents } = this;
    return { goal, tools: this.offer.offered(this.log), transcript: this.log.ref(), summary, agents };
  }

  /** The user cancelled the turn: calls not yet run are declined, and the agent waits for the next prompt. */
  private stopTurn(): void {
    this.cancelRequested = false;
    if (this.followUp?.kind !== 'list_agents' || this.followUp.call) this.followUp = null;
    // Cancelled before its turn began (the tools were being refreshed): that prompt is dropped, and answered.
    const prompt = this.turnOpen ? undefined : this.queue.shift();
    if (prompt) {
      this.activePrompt = prompt.id;
      this.log.user(prompt);
    }
    // Delegates at work are cancelled with the turn (the workflow cancels them); their calls say so.
    this.step.cancelDelegates();
    this.step.decline('the user cancelled the turn');
    this.log.say('Stopped, as you asked. What would you like to do next?');
    this.endTurn('cancelled');
  }
}
