// The conversation's decisions, as a pure class: which effect comes next and how each effect's result changes the
// state. It is the only decider; the workflow performs effects (schedules activities) and hands results back. It
// sequences the work (a cancel, a follow-up, the step's calls, a goal switch, the next plan, the next prompt) and
// asks collaborators that own their state: the turn and its tool step, prompts, the message log, approvals, budget,
// tool offer, task mode, delegations, replies, and the builtin tools (builtins/). Cancelling (cancel.ts), waits
// that run out (waits.ts) and what it hands on (views.ts) are functions of it. Unit tests drive it without Temporal.
import type { Appliers, Effect, EffectKind, QueuedPrompt, ResultOf } from '../../core/effects';
import type * as T from '../../core/types';
import type * as C from '../../core/conversation-types';
import type { ToolQuestion } from '../../core/tool-questions';
import { createBuiltins } from './builtins';
import { appliersFor, type ApplierHost } from './appliers';
import { Approvals } from './approvals';
import * as cancel from './cancel';
import type { CancelHost } from './cancel';
import { Budget, budgetStopText } from './budget';
import { Delegations } from './delegations';
import { MessageLog } from './message-log';
import { Models } from './models';
import { Questions } from './questions';
import { Replies } from './replies';
import { TaskMode } from './task-mode';
import { promptParts, promptRefusal, Prompts } from './prompts';
import type { PromptInput } from '../../core/messages';
import { ToolOffer } from './tool-offer';
import { ToolStep, type StepHost } from './tool-step';
import { Turn, type TurnHost } from './turn';
import { Steering } from './steering';
import { pendingApprovalOf, replyNow } from './reply-view';
import type { RunVersions } from '../versions';

export type { RunVersions } from '../versions';

export class Conversation implements StepHost, TurnHost, ApplierHost, CancelHost {
  // Set by begin(): the first activities read them, but handlers must exist before the first await.
  settings!: T.Settings;
  goal!: T.Goal;
  agents: T.AgentSummary[] = [];
  started = false;
  summary: string;
  ended = false;
  endedBy: C.Transcript['endedBy'] = 'user';
  readonly runs: number;
  readonly log: MessageLog;
  /** The replies update handlers wait for. */
  readonly replies = new Replies();
  readonly approvals = new Approvals();
  /** What running tools ask the user (MCP elicitation, sampling approvals), here or in a delegate. */
  readonly questions: Questions;
  readonly budget: Budget;
  /** Which model answers: the goal's own, or a fallback while it keeps failing. */
  readonly models: Models;
  readonly offer = new ToolOffer();
  readonly taskMode: TaskMode;
  /** This conversation's AskAgent calls and their delegates. */
  readonly delegations: Delegations;
  /** The builtin tools by name; made first, as the appliers below include theirs. */
  readonly builtins = createBuiltins(this);
  /** The tool calls of the step being carried out. */
  readonly step = new ToolStep(this, this.builtins.table);
  /** The turn under way (or the last one). */
  readonly turn = new Turn(this);
  /** What a message sent while the agent works does (goal.settings.whileBusy). */
  readonly steering = new Steering(this);

  readonly prompts: Prompts;
  private goalChange: string | null = null;
  /** Waits for the user end on their own (RunVersions.cancelAndExpire; see waits.ts). */
  expiringWaits = false;
  /** The user asked to stop the running turn; the next step stops it (after the in-flight effect returns). */
  private cancelRequested = false;
  /** An effect that continues the one just applied (a builtin tool's second step); it comes before anything else. */
  private followUp: Effect | null = null;

  /** `workflowId` names the delegates this conversation starts (`<workflowId>/<n>-<goal>`). */
  constructor(
    readonly input: Partial<C.AgentGoalInput> = {},
    workflowId = 'conversation',
  ) {
    const carried = input.carried;
    this.log = new MessageLog(carried?.messages, carried?.firstSeq, carried?.files);
    this.summary = carried?.summary ?? '';
    this.budget = new Budget(carried);
    this.models = new Models(carried);
    this.prompts = new Prompts(carried);
    this.runs = (carried?.runs ?? 0) + 1;
    this.delegations = new Delegations(workflowId, carried?.delegations ?? 0);
    this.questions = new Questions(this.delegations);
    this.offer.madeHere = carried?.madeTools ?? [];
    this.offer.files = this.log.files;
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
  get turnsThisRun(): number {
    return this.turn.countThisRun;
  }
  get catalog(): T.CatalogSummary | null {
    return this.offer.catalog;
  }

  /** Starts the conversation once settings and goal are loaded; a new one opens with the goal's starter prompt. */
  begin(settings: T.Settings, resolved: T.ResolvedGoal, versions: RunVersions = { refreshToolsEachTurn: true }): void {
    this.settings = { ...settings, historyEventBudget: this.input.historyEventBudget || settings.historyEventBudget };
    this.offer.refreshEachTurn = versions.refreshToolsEachTurn;
    this.offer.refreshDelegates = !!versions.refreshDelegates;
    this.offer.searchThreshold = settings.toolSearchThreshold ?? 0;
    this.expiringWaits = versions.cancelAndExpire ?? false;
    this.turn.vetWhilePlanning = versions.oneModelWait ?? false;
    this.budget.enforced = versions.budgets ?? false;
    this.steering.enabled = versions.steering ?? false;
    this.takeGoal(resolved);
    this.started = true;
    // A delegate has no greeting: the parent's task is its first prompt, and it is not checked against the goal.
    if (this.input.task) this.prompts.first(this.input.task.task, false, this.input.task.attachments);
    else if (!this.input.carried) this.prompts.first(this.goal.starterPrompt, true);
    // The tools were resolved just now: the first turn needs no second look.
    this.offer.checked(this.prompts.peek()?.id ?? 0);
    // In multi-goal mode the planner is told which agents exist from the first turn on.
    if (settings.multiGoal && !this.input.task) this.followUp = { kind: 'list_agents' };
  }

  // ---- inputs from handlers -------------------------------------------------------------------------------

  /** Queues a user prompt (with the files attached to it); `watch` keeps its reply for an update handler to collect. */
  enqueuePrompt(input: PromptInput, watch = false): number {
    const { text, attachments, ref } = promptParts(input);
    const id = this.prompts.add(text, attachments, ref, this.steering.modeOf(input) === 'interrupt');
    if (watch) this.replies.watch(id);
    return id;
  }

  /** Why a prompt is refused (the update's validator throws it; a signal's is logged), or null. */
  promptRefusal(text: unknown): string | null {
    if (this.ended) return 'The conversation has ended; start a new one.';
    return promptRefusal(text) ?? this.steering.refusal(text as PromptInput);
  }

  /** Returns why a confirm is refused, or null when it was taken. */
  confirm(decision: C.ConfirmDecision): string | null {
    return this.approvals.confirm(decision, this.delegations, this.ended);
  }

  confirmRefusal(decision: C.ConfirmDecision): string | null {
    return this.approvals.refusal(decision, this.delegations, this.ended);
  }

  /** A running tool asks the user something: the agent now needs the user, so clients waiting for a reply get it. */
  askUser(question: ToolQuestion): void {
    this.questions.ask(question);
    this.pause();
  }

  /** A delegate started or stopped waiting for the user (its delegateReport signal). */
  delegateReport(report: C.DelegateReport): void {
    if (!this.ended) this.delegations.report(report);
  }

  /** A delegate finished (or failed, or was cancelled): its envelope is its AskAgent call's result. */
  applyEnvelope(callId: string, envelope: C.DelegateEnvelope, byModel?: Record<string, T.Usage>): void {
    this.step.applyEnvelope(callId, envelope, byModel);
  }

  /** Task mode: what this delegate waits for from the user, as its parent shows it; null when it waits for nothing. */
  delegateWait(): C.DelegateWait | null {
    if (this.ended) return null;
    return this.taskMode.wait(this.pendingApproval(), this.delegations.questionShown(), this.questions.open());
  }

  endChat(): void {
    if (!this.ended) this.end('user');
  }

  /** The conversation ends here, its transcript kept (the user ended it, or it sat idle). */
  end(by: 'user' | 'idle'): void {
    this.ended = true;
    this.endedBy = by;
    this.pause();
  }

  /** Why a cancel is refused (no turn is running or about to start), or null. */
  cancelRefusal(): string | null {
    if (this.ended) return 'the conversation has ended';
    if (this.cancelRequested) return 'the turn is already being cancelled';
    if (!this.turn.open && this.prompts.length === 0) return 'nothing is running: the agent is waiting for you';
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

  pendingApproval(): C.PendingApproval | null {
    return pendingApprovalOf(this);
  }

  status(): C.ConversationState {
    if (this.ended) return 'ended';
    if (!this.started) return 'working';
    if (this.pendingApproval() && this.prompts.length === 0 && !this.goalChange) return 'awaiting_approval';
    if (this.questions.open()) return 'waiting_for_user';
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
    return this.goalChange !== null || this.turn.needsPlan || this.prompts.length > 0;
  }

  /** Continue-as-new happens only between turns (no tool call, plan, approval or waiting update in flight), and
   * only after this run did some work. */
  mayContinueAsNew(): boolean {
    const betweenTurns =
      this.step.calls.length === 0 && !this.turn.needsPlan && !this.approvals.open() && !this.followUp;
    // A delegate's one task is short: it never continues as new (its parent waits on this run).
    const idle = !this.cancelRequested && !this.replies.waiting() && this.turn.countThisRun > 0;
    return betweenTurns && !this.input.task && idle;
  }

  // ---- the loop's two verbs -------------------------------------------------------------------------------

  /** Decides the next effect, applying purely local transitions (arg checks, rejections) on the way; null when
   * there is nothing to do until the user (or a client) acts. */
  nextEffect(): Effect | null {
    for (;;) {
      if (this.ended) return null;
      if (this.cancelRequested) {
        this.cancelRequested = false;
        // A follow-up of the cancelled turn goes; the agents list a multi-goal run starts with stays.
        if (this.followUp?.kind !== 'list_agents' || this.followUp.call) this.followUp = null;
        cancel.stopTurn(this);
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
      if (this.turn.needsPlan) {
        this.steering.joinTurn();
        const effect = this.turn.plan();
        if (effect) return effect;
        continue;
      }
      const next = this.prompts.peek();
      if (!next) return null;
      if (this.offer.needsRefresh(this.goal, next.id)) {
        const known = this.offer.catalog?.version;
        return { kind: 'resolve_goal', goalId: this.goal.id, why: 'refresh', promptId: next.id, known };
      }
      const effect = this.turn.start(this.prompts.take()!);
      if (effect) return effect;
    }
  }

  /** Takes in an effect's result: the compiler pairs each effect kind with its result type. */
  apply<K extends EffectKind>(effect: Effect<K>, result: ResultOf<K>): void {
    this.appliers[effect.kind](effect, result);
  }

  /** The effect in flight was cancelled before it finished (the user cancelled the turn): record what is known. */
  applyCancelled(effect: Effect): void {
    cancel.applyCancelled(this, effect);
  }

  /** The model call in flight was cancelled for a message that joins the turn (Steering): it is asked again. */
  applyInterrupted(effect: Effect): void {
    this.turn.interrupted(effect);
  }

  private readonly appliers: Appliers = appliersFor(this);

  // ---- what builtins may do (BuiltinContext) ----------------------------------------------------------------

  record(call: T.ToolCall, outcome: T.ToolOutcome): void {
    this.step.record(call, outcome);
  }

  followWith(effect: Effect): void {
    this.followUp = effect;
  }

  /** The agent now needs the user: publish the reply for update handlers and clients. */
  pause(): void {
    this.replies.publish(replyNow(this));
  }

  finish(status: C.DelegateEnvelope['status'], summary?: string): void {
    if (this.input.task) this.taskMode.finish(status, summary, this.log, this.usage);
    this.step.start([]);
    this.turn.close();
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
    return this.prompts.length > 0;
  }

  movedOn(): boolean {
    return this.prompts.length > 0 || this.goalChange !== null;
  }

  takePrompt(): QueuedPrompt | undefined {
    return this.prompts.take();
  }

  skipPlan(): void {
    this.turn.needsPlan = false;
  }

  stepDone(): void {
    this.turn.needsPlan = true;
  }

  // ---- what the turn may do (TurnHost) ----------------------------------------------------------------------

  startStep(calls: T.ToolCall[]): void {
    this.step.start(calls);
  }

  // ---- internals ------------------------------------------------------------------------------------------

  /** The goal and its tools, as task mode adapts them. */
  private takeGoal(resolved: T.ResolvedGoal): void {
    this.goal = this.offer.take(resolved, this.taskMode.adapt);
  }

  /** The budget is used (checked before each model call, when no tool call is pending): the conversation ends,
   * its transcript kept; a delegate's parent gets an error envelope saying why. */
  stopForBudget(spent: string): void {
    const text = budgetStopText(spent);
    this.log.say(text);
    this.finish('error', text);
    this.endedBy = 'budget';
  }

  /** The turn is over; a delegate's turn is its task, so it ends with an envelope of `outcome`. */
  endTurn(outcome: C.DelegateEnvelope['status'] = 'ok'): void {
    if (this.input.task && !this.ended) return this.finish(outcome);
    this.turn.close();
    this.pause();
  }
}
