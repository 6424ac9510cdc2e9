// The conversation's decisions, as a pure class: which effect comes next and how each effect's result changes
// the state. It is the only decider; the workflow performs effects (schedules activities) and hands results back.
// Unit tests drive this class without Temporal.
import { confirmRefusal, needsApproval, type PendingCall } from './approvals';
import {
  ASK_AGENT,
  ASK_USER,
  BUILTIN_TOOLS,
  CHANGE_GOAL,
  COMPLETE_GOAL,
  CREATE_AGENT,
  isBuiltinTool,
  LIST_AGENTS,
  SEARCH_TOOLS,
  SEARCH_TOOLS_SPEC,
} from '../../core/builtin-specs';
import { checkArgs } from '../../core/check-args';
import { DEFAULT_DELEGATION_LIMITS, Delegations } from './delegations';
import type {
  Appliers,
  DelegateStarted,
  Effect,
  EffectKind,
  QueuedPrompt,
  ResultOf,
  StepFailure,
} from '../../core/effects';
import { Replies } from './replies';
import { PATCHES } from '../versions';
import {
  type AgentGoalInput,
  type AgentSummary,
  type CatalogSummary,
  type CarriedState,
  type ChatMessage,
  type ConfirmDecision,
  type ConversationFeed,
  type ConversationState,
  type DelegateEnvelope,
  type DelegateReport,
  type DelegateWait,
  type Goal,
  type GoalDraftResult,
  type PendingApproval,
  type PlanRequest,
  type PlanResult,
  type PromptVerdict,
  type ResolvedGoal,
  type Settings,
  type SummarizeRequest,
  type ToolCall,
  type ToolOutcome,
  type ToolSpec,
  type Transcript,
  type TranscriptRef,
  type Usage,
} from '../../core/types';
import { addUsage, ZERO_USAGE } from '../../core/usage';
import { formatDuration, formatUsd } from '../../core/format';
import { MAX_PROMPT_CHARS } from '../../core/messages';

/** How this run was started: versioned paths it takes (patched() answers the workflow read at start). */
export interface RunVersions {
  /** Runs started before per-turn discovery existed never re-resolve tools between turns. */
  refreshToolsEachTurn: boolean;
  /** Runs started before cancelling and APPROVAL_TIMEOUT / IDLE_TIMEOUT existed wait for the user without a timer. */
  cancelAndExpire?: boolean;
  /** Runs started before one-model-wait validate a prompt, then plan: two model calls in a row. */
  oneModelWait?: boolean;
  /** Runs started before budgets existed never stop for spending. */
  budgets?: boolean;
}

/** A wait for the user that ends on its own: how long, and what runs out. */
export interface WaitLimit {
  seconds: number;
  expires: 'approval' | 'idle';
}

export class Conversation {
  // Set by begin(): the first activities read them, but handlers must exist before the first await.
  settings!: Settings;
  goal!: Goal;
  tools: ToolSpec[] = [];
  catalog: CatalogSummary | null = null;
  /** The agents the user can switch to (multi-goal mode), as last listed. */
  agents: AgentSummary[] = [];
  started = false;
  messages: ChatMessage[];
  summary: string;
  usage: Usage;
  /** What each goal's agent spent in this conversation (a delegate's spending counts for its goal). */
  usageByGoal: Record<string, Usage>;
  ended = false;
  endedBy: Transcript['endedBy'] = 'user';
  /** The replies update handlers wait for. */
  readonly replies = new Replies();
  turnsThisRun = 0;
  readonly runs: number;

  private queue: QueuedPrompt[];
  private promptSeq: number;
  private calls: ToolCall[] = [];
  private approval: PendingCall | null = null;
  private needsPlan = false;
  private stepsThisTurn = 0;
  private activePrompt = 0;
  private goalChange: string | null = null;
  private toolsCheckedFor = 0;
  private refreshToolsEachTurn = false;
  private waitsExpire = false;
  /** The user asked to stop the running turn; the next step stops it (after the in-flight effect returns). */
  private cancelRequested = false;
  /** A prompt was taken up and its turn has not ended (it may be waiting for an approval). */
  private turnOpen = false;
  /** The user's first prompt of this run (not a starter): the conversation's title in Temporal's list. */
  private firstPrompt: string | null = null;
  /** How many messages LLM requests of this run have carried so far; later requests send only what follows. */
  private sentUpTo = 0;
  /** The sequence number of `messages[0]` in the whole conversation (see CarriedState.firstSeq). */
  private readonly firstSeq: number;
  /** Prompts are checked while the turn is planned (RunVersions.oneModelWait). */
  private vetWhilePlanning = false;
  /** The budget stops the conversation (RunVersions.budgets). */
  private budgets = false;
  /** An effect that continues the one just applied (a builtin tool's second step); it comes before anything else. */
  private followUp: Effect | null = null;
  /** This conversation's AskAgent calls and their delegates. */
  readonly delegations: Delegations;
  /** Task mode (a delegate): the AskUser call waiting for the user's answer. */
  private question: ToolCall | null = null;
  /** Task mode: the answer for the parent, once the task is done. */
  private envelope: DelegateEnvelope | null = null;
  /** SearchTools: the tools it found this turn (offered until the turn ends). */
  private foundThisTurn = new Set<string>();
  /** CreateAgent calls whose draft passed the check: the user is shown them for approval. */
  private readonly draftsChecked = new Set<string>();
  /** The goal and tools as last resolved, before task mode adapts them (see takeGoal). */
  private resolved: ResolvedGoal | null = null;

  /** `workflowId` names the delegates this conversation starts (`<workflowId>/<n>-<goal>`). */
  constructor(
    private readonly input: Partial<AgentGoalInput> = {},
    workflowId = 'conversation',
  ) {
    const carried = input.carried;
    this.messages = carried ? [...carried.messages] : [];
    this.summary = carried?.summary ?? '';
    this.usage = carried?.usage ?? ZERO_USAGE;
    this.usageByGoal = { ...carried?.usageByGoal };
    this.queue = carried ? [...carried.pendingPrompts] : [];
    this.promptSeq = carried?.promptSeq ?? 0;
    this.runs = (carried?.runs ?? 0) + 1;
    this.firstSeq = carried?.firstSeq ?? 0;
    this.delegations = new Delegations(workflowId, carried?.delegations ?? 0);
  }

  /** Starts the conversation once settings and goal are loaded; a new one opens with the goal's starter prompt. */
  begin(settings: Settings, resolved: ResolvedGoal, versions: RunVersions = { refreshToolsEachTurn: true }): void {
    this.settings = { ...settings, historyEventBudget: this.input.historyEventBudget || settings.historyEventBudget };
    this.refreshToolsEachTurn = versions.refreshToolsEachTurn;
    this.waitsExpire = versions.cancelAndExpire ?? false;
    this.vetWhilePlanning = versions.oneModelWait ?? false;
    this.budgets = versions.budgets ?? false;
    this.takeGoal(resolved);
    this.started = true;
    // A delegate has no greeting: the parent's task is its first prompt, and it is not checked against the goal.
    if (this.input.task) this.queue.unshift({ id: ++this.promptSeq, text: this.input.task.task });
    else if (!this.input.carried)
      this.queue.unshift({ id: ++this.promptSeq, text: this.goal.starterPrompt, starter: true });
    // The tools were resolved just now: the first turn needs no second look.
    this.toolsCheckedFor = this.queue[0]?.id ?? 0;
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
    if (text.length > MAX_PROMPT_CHARS)
      return `The prompt has ${text.length} characters; the limit is ${MAX_PROMPT_CHARS}.`;
    return null;
  }

  /** Returns why a confirm is refused, or null when it was taken. */
  confirm(decision: ConfirmDecision): string | null {
    const refusal = this.confirmRefusal(decision);
    if (refusal !== null) return refusal;
    if (this.awaitingOwnApproval()) this.approval!.decision = decision;
    // A delegate's call: the answer goes down to it.
    else this.delegations.answerApproval(decision);
    return null;
  }

  confirmRefusal(decision: ConfirmDecision): string | null {
    if (this.awaitingOwnApproval()) return confirmRefusal(this.approval, decision, this.ended);
    const asked = this.delegations.approvalShown();
    return confirmRefusal(asked ? { call: asked.approval.call, decision: null } : this.approval, decision, this.ended);
  }

  /** A delegate started or stopped waiting for the user (its delegateReport signal). */
  delegateReport(report: DelegateReport): void {
    if (!this.ended) this.delegations.report(report);
  }

  /** A delegate finished (or failed, or was cancelled): its envelope is its AskAgent call's result. */
  applyEnvelope(callId: string, envelope: DelegateEnvelope): void {
    const call = this.calls.find((c) => c.id === callId);
    if (!call || !this.delegations.finish(callId, envelope)) return;
    this.spend(envelope.usage, String(call.args.agentId ?? this.goal.id));
    this.recordOutcome(call, { status: 'ok', result: envelope });
  }

  /** Task mode: what this delegate waits for from the user, as its parent shows it; null when it waits for nothing. */
  delegateWait(): DelegateWait | null {
    if (this.ended) return null;
    if (this.question)
      return { kind: 'question', question: String(this.question.args.question ?? ''), callId: this.question.id };
    // Its own approval, or what one of its own delegates waits for, passed on up.
    const approval = this.pendingApproval();
    if (approval) return { kind: 'approval', approval };
    return this.delegations.questionShown();
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

  pendingApproval(): PendingApproval | null {
    if (!this.awaitingOwnApproval()) return this.delegations.approvalShown()?.approval ?? null;
    const spec = this.findTool(this.approval!.call.tool);
    // CreateAgent's own description carries the whole catalog (for the LLM); the user needs one line.
    const description =
      spec?.name === CREATE_AGENT
        ? 'Save this new agent to the goals folder; it is usable at once.'
        : (spec?.description ?? '');
    return { call: this.approval!.call, tool: this.approval!.call.tool, description };
  }

  status(): ConversationState {
    if (this.ended) return 'ended';
    if (!this.started) return 'working';
    if (this.pendingApproval() && this.queue.length === 0 && !this.goalChange) return 'awaiting_approval';
    if (this.hasWork()) return 'working';
    // Delegates at work: the conversation is working unless one of them asked the user something.
    return this.delegations.running(this.calls) && !this.delegations.questionShown() ? 'working' : 'waiting_for_user';
  }

  /** Pure: whether nextEffect() would find something to do. Safe inside condition(). */
  hasWork(): boolean {
    if (this.ended || this.cancelRequested) return true;
    if (!this.started) return false;
    if (this.followUp) return true;
    if (this.calls.length > 0) {
      if (this.delegations.hasWork(this.calls)) return true;
      const own = this.calls.filter((c) => !this.delegations.has(c.id));
      // Only delegates at work: a new message answers the question one asked, or declines the approval one awaits.
      if (own.length === 0) return this.queue.length > 0 && this.delegations.waitShown() !== null;
      const waiting = this.awaitingOwnApproval() || this.question !== null;
      return !waiting || this.queue.length > 0 || this.goalChange !== null;
    }
    return this.goalChange !== null || this.needsPlan || this.queue.length > 0;
  }

  /** Continue-as-new happens only between turns (no tool call, plan, approval or waiting update in flight), and
   * only after this run did some work. */
  mayContinueAsNew(): boolean {
    const betweenTurns = this.calls.length === 0 && !this.needsPlan && this.approval === null && !this.followUp;
    // A delegate's one task is short: it never continues as new (its parent waits on this run).
    return (
      betweenTurns && !this.input.task && !this.cancelRequested && !this.replies.waiting() && this.turnsThisRun > 0
    );
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
      if (this.calls.length > 0) {
        const effect = this.nextToolEffect();
        if (effect !== undefined) return effect;
        continue;
      }
      if (this.goalChange !== null) {
        const goalId = this.goalChange;
        this.goalChange = null;
        return { kind: 'resolve_goal', goalId, why: 'switch' };
      }
      if (this.needsPlan) {
        const spent = this.overBudget();
        if (spent) {
          this.stopForBudget(spent);
          continue;
        }
        if (this.stepsThisTurn >= (this.goal.settings?.maxToolSteps ?? this.settings.maxToolStepsPerTurn)) {
          this.say(
            `I have taken ${this.stepsThisTurn} steps on this request without finishing. ` +
              'Tell me how you would like to continue.',
          );
          this.endTurn('needs_input');
          continue;
        }
        return { kind: 'plan', request: this.planRequest() };
      }
      const next = this.queue[0];
      if (!next) return null;
      // Only MCP tools can change while a conversation runs; goals without them skip the look.
      if (this.refreshToolsEachTurn && this.goal.mcp && this.toolsCheckedFor !== next.id) {
        return { kind: 'resolve_goal', goalId: this.goal.id, why: 'refresh', promptId: next.id };
      }
      const prompt = this.queue.shift()!;
      if (!prompt.starter) this.firstPrompt ??= prompt.text;
      this.turnOpen = true;
      this.activePrompt = prompt.id;
      const spent = this.overBudget();
      if (spent) {
        this.messages.push(userMessage(prompt));
        this.stopForBudget(spent);
        continue;
      }
      this.stepsThisTurn = 0;
      this.foundThisTurn.clear();
      this.turnsThisRun++;
      // A delegate's task comes from its parent agent, not from a user: nothing to check.
      const vet = this.settings.validatePrompts && !prompt.starter && !this.input.task;
      if (vet && this.vetWhilePlanning) {
        // The planner needs the prompt in its transcript; a refusal then follows it, as it always has.
        this.messages.push(userMessage(prompt));
        return { kind: 'vet_and_plan', prompt, request: { ...this.planRequest(), prompt: prompt.text } };
      }
      if (vet) {
        return {
          kind: 'validate',
          prompt,
          request: { goal: this.goal, transcript: this.transcriptRef(), prompt: prompt.text, agents: this.agents },
        };
      }
      this.messages.push(userMessage(prompt));
      this.needsPlan = true;
    }
  }

  /** Takes in an effect's result: the compiler pairs each effect kind with its result type. */
  apply<K extends EffectKind>(effect: Effect<K>, result: ResultOf<K>): void {
    this.appliers[effect.kind](effect, result);
  }

  /** The effect in flight was cancelled before it finished (the user cancelled the turn): record what is known. */
  applyCancelled(effect: Effect): void {
    if (effect.kind === 'validate') this.messages.push(userMessage(effect.prompt));
    if (effect.kind === 'run_tool')
      this.recordOutcome(effect.call, { status: 'tool_error', error: cancelledCall(effect.spec) });
    if (effect.kind === 'start_delegates') for (const { call } of effect.delegates) this.cancelDelegate(call);
    if (effect.kind === 'create_goal') {
      this.recordOutcome(effect.call, {
        status: 'tool_error',
        error: 'Cancelled by the user; the agent may or may not have been saved (agent goals lists it if it was).',
      });
    }
    // The agents a multi-goal run starts with are not part of any turn: list them again.
    if (effect.kind === 'list_agents' && !effect.call) this.followUp = effect;
  }

  /** How long the coming wait for the user may last before it expires; null: no limit (or an older run). */
  waitLimit(): WaitLimit | null {
    if (!this.waitsExpire) return null;
    // A delegate's question expires as an approval does; a delegate's approval shown here expires in the delegate.
    if (this.question)
      return this.settings.approvalTimeoutSeconds
        ? { seconds: this.settings.approvalTimeoutSeconds, expires: 'approval' }
        : null;
    if (!this.awaitingOwnApproval() && this.delegations.waitShown()) return null;
    const state = this.status();
    const seconds =
      state === 'awaiting_approval'
        ? this.settings.approvalTimeoutSeconds
        : state === 'waiting_for_user'
          ? this.settings.idleTimeoutSeconds
          : undefined;
    return seconds ? { seconds, expires: state === 'awaiting_approval' ? 'approval' : 'idle' } : null;
  }

  /** A wait ran out: an unanswered approval is declined; an idle conversation ends, keeping its transcript. */
  expire(limit: WaitLimit): void {
    const waited = formatDuration(limit.seconds);
    if (limit.expires === 'idle') {
      this.messages.push({
        kind: 'note',
        text: `The conversation ended after ${waited} without a message (IDLE_TIMEOUT).`,
      });
      this.ended = true;
      this.endedBy = 'idle';
      this.pause();
      return;
    }
    if (this.question) {
      const question = String(this.question.args.question ?? '');
      this.declineRemaining(`nobody answered within ${waited} (APPROVAL_TIMEOUT)`);
      this.say(`I need an answer to go on: ${question}`);
      return this.endTurn('needs_input');
    }
    const tool = this.approval?.call.tool ?? 'the tool';
    this.declineRemaining(`nobody answered within ${waited} (APPROVAL_TIMEOUT)`);
    this.say(
      `The request to run ${tool} expired: nobody answered within ${waited}, so it did not run. Ask again if you still want it.`,
    );
    this.endTurn('needs_input');
  }

  private readonly appliers: Appliers = {
    validate: (effect, verdict) => this.applyVerdict(effect.prompt, verdict),
    vet_and_plan: (_effect, verdict) => this.applyVettedPlan(verdict),
    plan: (_effect, plan) => this.applyPlan(plan),
    run_tool: (effect, outcome) => this.recordOutcome(effect.call, outcome),
    list_agents: (effect, agents) => this.applyAgents(effect.call, agents),
    check_version: (effect, patched) => this.applyVersion(effect.call, patched),
    resolve_goal: (effect, resolved) => this.applyGoal(effect, resolved),
    start_delegates: (effect, started) =>
      this.applyDelegatesStarted(
        effect.delegates.map((d) => d.call),
        started,
      ),
    // Another delegate's approval or question is still shown: the user is needed again now, so the update that sent
    // this answer returns with that wait, not when the whole step is over.
    search_tools: ({ call, query }, matches) => {
      if ('failed' in matches) return this.recordOutcome(call, { status: 'tool_error', error: matches.failed });
      for (const m of matches) this.foundThisTurn.add(m.name);
      this.recordOutcome(call, { status: 'ok', result: { query, matches } });
    },
    check_goal_draft: ({ call }, checked) => {
      if ('failed' in checked) this.recordOutcome(call, { status: 'tool_error', error: checked.failed });
      else if (checked.problems.length > 0)
        this.recordOutcome(call, { status: 'invalid_input', problems: checked.problems, missing: [] });
      else this.draftsChecked.add(call.id);
    },
    create_goal: ({ call }, created) => this.applyCreatedGoal(call, created),
    answer_delegate: () => {
      if (this.delegations.waitShown() && !this.delegations.hasAnswersToSend()) this.pause();
    },
  };

  // ---- state carried over and handed back -----------------------------------------------------------------

  /** Splits history for continue-as-new: older messages to summarise, recent whole turns to keep. */
  splitForCarry(): { older: ChatMessage[]; recent: ChatMessage[] } {
    let start = Math.max(0, this.messages.length - this.settings.recentMessagesKept);
    // Keep whole turns: a kept tool result must keep its call, so cut just before a user message.
    while (start > 0 && this.messages[start]?.kind !== 'user') start--;
    return { older: this.messages.slice(0, start), recent: this.messages.slice(start) };
  }

  /** What continue-as-new needs: the older messages to summarise (null when none), and the next run's input. */
  prepareCarry(): { summarize: SummarizeRequest | null; nextRun(summary: string): AgentGoalInput } {
    const { older, recent } = this.splitForCarry();
    return {
      summarize: older.length
        ? { goal: this.goal, previousSummary: this.summary, transcript: this.transcriptRef(older.length) }
        : null,
      nextRun: (summary) => ({
        goalId: this.goal.id,
        owner: this.input.owner,
        historyEventBudget: this.input.historyEventBudget,
        carried: this.carry(summary, recent),
      }),
    };
  }

  carry(summary: string, recent: ChatMessage[]): CarriedState {
    return {
      summary,
      messages: recent,
      pendingPrompts: this.queue.map(({ id, text }) => ({ id, text })),
      usage: this.usage,
      usageByGoal: this.usageByGoal,
      promptSeq: this.promptSeq,
      runs: this.runs,
      delegations: this.delegations.started,
      firstSeq: this.firstSeq + this.messages.length - recent.length,
    };
  }

  /** Messages from sequence number `since` on, and the state, for live views (feedQuery). */
  feed(since = 0): ConversationFeed {
    const from = Math.max(0, since - this.firstSeq);
    return {
      goalId: this.goal?.id ?? this.input.goalId ?? '',
      owner: this.input.owner ?? null,
      state: this.status(),
      first: this.firstSeq,
      next: this.firstSeq + this.messages.length,
      messages: this.messages.slice(from).map((message, i) => ({ seq: this.firstSeq + from + i, message })),
      pendingApproval: this.pendingApproval(),
      usage: this.usage,
      usageByGoal: this.usageByGoal,
    };
  }

  transcript(): Transcript {
    const transcript: Transcript = {
      goalId: this.goal.id,
      endedBy: this.endedBy,
      summary: this.summary,
      messages: this.messages,
      usage: this.usage,
    };
    return this.envelope ? { ...transcript, envelope: this.envelope } : transcript;
  }

  // ---- internals ------------------------------------------------------------------------------------------

  /** The next effect for the first pending call; null: wait for the user; undefined: decided here, look again. */
  private nextToolEffect(): Effect | null | undefined {
    const delegated = this.delegateEffect();
    if (delegated !== null) return delegated;
    // Delegates run on their own; the step's other calls go one by one, in order.
    const call = this.calls.find((c) => !this.delegations.has(c.id));
    if (!call) return this.whileDelegatesRun();
    if (this.question?.id === call.id) return this.answerQuestion(call);
    if (this.approval?.call.id === call.id && this.approval.decision === null) {
      if (this.queue.length === 0 && this.goalChange === null) return null;
      // The user moved on instead of answering: the proposed calls are declined, with the reason.
      this.declineRemaining('the user sent a new message instead of approving');
      return undefined;
    }
    const spec = this.findTool(call.tool);
    if (!spec) {
      const known = this.searchesTools()
        ? 'find tools with SearchTools'
        : `available tools: ${this.tools.map((t) => t.name).join(', ')}`;
      this.recordOutcome(call, invalid([`unknown tool "${call.tool}"; ${known}`]));
      return undefined;
    }
    // CreateAgent changes the world (a goal file): it goes through approval like any such tool.
    if (isBuiltinTool(spec.name) && spec.name !== CREATE_AGENT) return this.builtinEffect(call, spec);
    const decision = this.approval?.call.id === call.id ? this.approval.decision : null;
    if (decision?.approve === false) {
      this.recordOutcome(call, { status: 'rejected', reason: decision.reason });
      return undefined;
    }
    if (decision?.approve && decision.args) call.args = decision.args;
    const check = checkArgs(spec.inputSchema, call.args);
    if (check.problems.length > 0) {
      this.recordOutcome(call, { status: 'invalid_input', problems: check.problems, missing: check.missing });
      return undefined;
    }
    // A draft that cannot be a goal goes back to the LLM with the reasons, before the user is asked.
    if (spec.name === CREATE_AGENT && !decision && !this.draftsChecked.has(call.id))
      return { kind: 'check_goal_draft', call };
    if (!decision && needsApproval(spec, this.goal, this.settings)) {
      this.approval = { call, decision: null };
      this.pause();
      return null;
    }
    if (spec.name === CREATE_AGENT) return { kind: 'create_goal', call, request: this.lastUserText() };
    return { kind: 'run_tool', call, spec };
  }

  // ---- builtin tools: they change the conversation, not the world -----------------------------------------

  /** What a builtin call needs done; CompleteGoal in single-goal mode needs nothing and ends here. */
  private builtinEffect(call: ToolCall, spec: ToolSpec): Effect | null | undefined {
    switch (call.tool) {
      case SEARCH_TOOLS: {
        const check = checkArgs(spec.inputSchema, call.args);
        if (check.problems.length > 0) {
          this.recordOutcome(call, { status: 'invalid_input', problems: check.problems, missing: check.missing });
          return undefined;
        }
        const limit = typeof call.args.limit === 'number' ? call.args.limit : undefined;
        return {
          kind: 'search_tools',
          call,
          query: String(call.args.query),
          limit,
          tools: this.tools.filter((t) => t.kind !== 'builtin'),
        };
      }
      case ASK_USER: {
        const check = checkArgs(spec.inputSchema, call.args);
        if (check.problems.length > 0 || !this.input.task) {
          const problems = this.input.task
            ? check.problems
            : ['AskUser is for delegates; ask the user in your reply instead'];
          this.recordOutcome(call, { status: 'invalid_input', problems, missing: check.missing });
          return undefined;
        }
        this.question = call;
        this.pause();
        return null;
      }
      case LIST_AGENTS:
        return { kind: 'list_agents', call };
      case CHANGE_GOAL:
        return { kind: 'resolve_goal', goalId: String(call.args.goalId), why: 'change_goal', call };
      case COMPLETE_GOAL:
        if (this.input.task) {
          this.recordOutcome(call, { status: 'ok', result: { completed: this.goal.id } });
          this.finishTask('ok', typeof call.args.summary === 'string' ? call.args.summary : undefined);
          return undefined;
        }
        // In multi-goal mode a finished agent hands the conversation back to the picker; the picker's closing ends it.
        if (this.awayFromPicker())
          return { kind: 'resolve_goal', goalId: this.settings.pickerGoalId, why: 'complete_goal', call };
        this.recordOutcome(call, { status: 'ok', result: { completed: this.goal.id } });
        this.finish();
        return undefined;
      default:
        this.recordOutcome(call, { status: 'tool_error', error: `no builtin tool named ${call.tool}` });
        return undefined;
    }
  }

  private applyAgents(call: ToolCall | undefined, agents: AgentSummary[] | StepFailure): void {
    if ('failed' in agents) {
      if (call) this.recordOutcome(call, { status: 'tool_error', error: agents.failed });
      return;
    }
    this.agents = agents;
    if (!call) return;
    // In multi-goal mode, asking for the other agents from an agent goes back to the picker (a versioned change).
    if (this.awayFromPicker())
      this.followUp = { kind: 'check_version', patchId: PATCHES.listAgentsReturnsToPicker, call };
    else this.recordOutcome(call, { status: 'ok', result: { agents } });
  }

  private applyVersion(call: ToolCall, patched: boolean): void {
    if (patched) this.followUp = { kind: 'resolve_goal', goalId: this.settings.pickerGoalId, why: 'list_agents', call };
    else this.recordOutcome(call, { status: 'ok', result: { agents: this.agents } });
  }

  private applyGoal(effect: Effect<'resolve_goal'>, resolved: ResolvedGoal | StepFailure): void {
    if (effect.why === 'refresh') return this.applyToolRefresh(effect.promptId, resolved);
    if (effect.why === 'switch') return this.applyGoalSwitch(resolved);
    if ('failed' in resolved) return this.recordOutcome(effect.call, { status: 'tool_error', error: resolved.failed });
    const result =
      effect.why === 'change_goal'
        ? { switchedTo: resolved.goal.agentName }
        : effect.why === 'list_agents'
          ? { agents: this.agents }
          : { completed: this.goal.id, next: 'pick a new agent' };
    this.recordOutcome(effect.call, { status: 'ok', result });
    // The tool result already says where the conversation went; the new system prompt does the rest.
    this.switchGoal(resolved, false);
  }

  private awayFromPicker(): boolean {
    return this.settings.multiGoal && this.goal.id !== this.settings.pickerGoalId;
  }

  private finish(): void {
    this.calls = [];
    this.needsPlan = false;
    this.turnOpen = false;
    this.ended = true;
    this.endedBy = 'goal_complete';
    this.pause();
  }

  /** The user cancelled the turn: calls not yet run are declined, and the agent waits for the next prompt. */
  private stopTurn(): void {
    this.cancelRequested = false;
    if (this.followUp?.kind !== 'list_agents' || this.followUp.call) this.followUp = null;
    // Cancelled before its turn began (the tools were being refreshed): that prompt is dropped, and answered.
    const prompt = this.turnOpen ? undefined : this.queue.shift();
    if (prompt) {
      this.activePrompt = prompt.id;
      this.messages.push(userMessage(prompt));
    }
    // Delegates at work are cancelled with the turn (the workflow cancels them); their calls say so.
    for (const call of this.calls.filter((c) => this.delegations.has(c.id))) this.cancelDelegate(call);
    this.declineRemaining('the user cancelled the turn');
    this.say('Stopped, as you asked. What would you like to do next?');
    this.endTurn('cancelled');
  }

  /** Declines the step's calls not yet run; delegates at work go on, and the step waits for them. */
  private declineRemaining(reason: string): void {
    for (const call of this.calls.filter((c) => !this.delegations.has(c.id)))
      this.recordOutcome(call, { status: 'rejected', reason });
    if (this.question && !this.calls.includes(this.question)) this.question = null;
    // The new prompt starts a new turn; do not plan on the declined calls first.
    if (this.calls.length === 0) this.needsPlan = false;
  }

  private cancelDelegate(call: ToolCall): void {
    this.applyEnvelope(call.id, {
      status: 'cancelled',
      summary: 'Cancelled by the user before it finished.',
      usage: ZERO_USAGE,
    });
  }

  // ---- delegation: AskAgent calls become child conversations -------------------------------------------------

  /** An answer to send down, or the step's AskAgent calls to start; null: nothing for delegates to do now. */
  private delegateEffect(): Effect | null | undefined {
    const answer = this.delegations.takeAnswer();
    if (answer) return answer;
    const spec = this.findTool(ASK_AGENT);
    const unstarted = spec ? this.calls.filter((c) => c.tool === ASK_AGENT && !this.delegations.has(c.id)) : [];
    if (unstarted.length === 0) return null;
    const limits = this.settings.delegation ?? DEFAULT_DELEGATION_LIMITS;
    const { start, refused } = this.delegations.plan(
      unstarted,
      spec,
      this.input.task?.depth ?? 0,
      limits,
      this.input.owner,
    );
    for (const [call, outcome] of refused) this.recordOutcome(call, outcome);
    return start.length > 0 ? { kind: 'start_delegates', delegates: start } : undefined;
  }

  /** Only delegates are at work: show what one waits for, or take the user's message as its answer. */
  private whileDelegatesRun(): Effect | null | undefined {
    const shown = this.delegations.showNext();
    if (shown) {
      if (shown.wait.kind === 'question')
        this.say(`${shown.wait.agentName ?? shown.delegation.agentName} asks: ${shown.wait.question}`);
      this.pause();
      return null;
    }
    if (this.queue.length === 0) return null;
    if (this.delegations.approvalShown()) {
      // As with this agent's own calls: a new message instead of an answer declines; the message waits its turn.
      this.delegations.answerApproval({ approve: false, reason: 'the user sent a new message instead of approving' });
      return undefined;
    }
    if (this.delegations.questionShown()) {
      const prompt = this.queue.shift()!;
      this.messages.push(userMessage(prompt));
      this.activePrompt = prompt.id;
      this.delegations.answerQuestion(prompt.text);
      return undefined;
    }
    return null;
  }

  /** CreateAgent's outcome: the new goal (usable at once), or why the (maybe edited) draft was refused. */
  private applyCreatedGoal(call: ToolCall, created: GoalDraftResult | StepFailure): void {
    if ('failed' in created) return this.recordOutcome(call, { status: 'tool_error', error: created.failed });
    if ('problems' in created)
      return this.recordOutcome(call, { status: 'invalid_input', problems: created.problems, missing: [] });
    this.recordOutcome(call, {
      status: 'ok',
      result: { created: created.goalId, next: `ChangeGoal to ${created.goalId} to use it now` },
    });
    // The planner's list of agents includes the new one from the next step on.
    if (this.settings.multiGoal) this.followUp = { kind: 'list_agents' };
  }

  /** The user's latest words (not a starter prompt): what a created agent was asked for. */
  private lastUserText(): string {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'user' && !m.starter) return m.text;
    }
    return '';
  }

  private applyDelegatesStarted(calls: ToolCall[], started: DelegateStarted[]): void {
    for (const result of started) {
      if (!('failed' in result)) continue;
      const call = calls.find((c) => c.id === result.callId);
      if (call)
        this.applyEnvelope(call.id, {
          status: 'error',
          summary: `The agent could not start: ${result.failed}`,
          usage: ZERO_USAGE,
        });
    }
  }

  /** Task mode: the user's answer to this delegate's AskUser question is the call's result. */
  private answerQuestion(call: ToolCall): Effect | null | undefined {
    const prompt = this.queue.shift();
    if (!prompt) return null;
    this.activePrompt = prompt.id;
    this.question = null;
    this.recordOutcome(call, { status: 'ok', result: { answer: prompt.text } });
    return undefined;
  }

  /** Task mode: the task is over; the envelope is what the parent gets. */
  private finishTask(status: DelegateEnvelope['status'], summary?: string): void {
    const data = this.lastResult();
    this.envelope = {
      status,
      summary: summary?.trim() || this.latestAgentText() || (status === 'ok' ? 'Done.' : `Stopped (${status}).`),
      ...(data !== undefined ? { data } : {}),
      usage: this.usage,
    };
    this.finish();
  }

  /** The result of the task's last successful tool call: what a parent may chain on. */
  private lastResult(): unknown {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'user') return undefined;
      if (m.kind === 'tool' && m.outcome.status === 'ok' && !isBuiltinTool(m.call.tool)) return m.outcome.result;
    }
    return undefined;
  }

  private recordOutcome(call: ToolCall, outcome: ToolOutcome): void {
    this.messages.push({ kind: 'tool', call, outcome });
    this.calls = this.calls.filter((c) => c.id !== call.id);
    if (this.approval?.call.id === call.id) this.approval = null;
    if (this.calls.length === 0) this.needsPlan = true;
  }

  private applyVerdict(prompt: QueuedPrompt, verdict: PromptVerdict | StepFailure): void {
    this.messages.push(userMessage(prompt));
    // A failed validation call fails open: the planner still sees the prompt.
    if ('failed' in verdict || verdict.valid) {
      this.needsPlan = true;
      if (!('failed' in verdict)) this.spend(verdict.usage);
      return;
    }
    this.spend(verdict.usage);
    this.say(verdict.reply);
    this.endTurn();
  }

  /** The verdict on a prompt already in the transcript, and the plan made meanwhile (dropped when it does not fit). */
  private applyVettedPlan(verdict: PromptVerdict | StepFailure): void {
    // Failing open, as validation always has: the turn is planned on its own.
    if ('failed' in verdict) {
      this.needsPlan = true;
      return;
    }
    this.spend(verdict.usage);
    if (!verdict.valid) {
      this.say(verdict.reply);
      this.endTurn();
    } else if (verdict.plan) {
      this.applyPlan(verdict.plan);
    } else {
      this.needsPlan = true;
    }
  }

  private applyPlan(result: PlanResult | StepFailure): void {
    this.needsPlan = false;
    if ('failed' in result) {
      this.say(`Sorry, I could not get an answer from the language model (${result.failed}). Please try again.`);
      this.endTurn('error');
      return;
    }
    this.stepsThisTurn++;
    this.spend(result.usage);
    this.messages.push({ kind: 'agent', text: result.text, toolCalls: result.toolCalls, usage: result.usage });
    if (result.toolCalls.length > 0) this.calls = [...result.toolCalls];
    else this.endTurn();
  }

  private applyGoalSwitch(result: ResolvedGoal | StepFailure): void {
    if ('failed' in result) {
      this.messages.push({ kind: 'note', text: `Could not switch agent: ${result.failed}` });
      this.pause();
      return;
    }
    this.switchGoal(result, true);
    // A switch asked for by a client starts the new agent the way a new conversation starts.
    this.queue.unshift({ id: ++this.promptSeq, text: result.goal.starterPrompt, starter: true });
  }

  private applyToolRefresh(promptId: number, result: ResolvedGoal | StepFailure): void {
    this.toolsCheckedFor = promptId;
    // Discovery failed after retries: keep serving the tools we had.
    if ('failed' in result) return;
    const before = new Set(this.tools.map((t) => t.name));
    // The conversation keeps the version of its goal it started with (an edited or removed goal file changes it only
    // when it switches or continues as new); the MCP tools are live: servers come and go between turns.
    const kept = this.resolved!;
    this.takeGoal({
      goal: kept.goal,
      tools: [...kept.tools.filter((t) => t.kind !== 'mcp'), ...result.tools.filter((t) => t.kind === 'mcp')],
      catalog: result.catalog,
    });
    const after = new Set(this.tools.map((t) => t.name));
    const added = [...after].filter((n) => !before.has(n));
    const removed = [...before].filter((n) => !after.has(n));
    if (added.length || removed.length) {
      const parts = [
        added.length && `new: ${added.join(', ')}`,
        removed.length && `no longer available: ${removed.join(', ')}`,
      ];
      this.messages.push({
        kind: 'note',
        text: `Tools changed since the last turn (${parts.filter(Boolean).join('; ')}).`,
      });
    }
  }

  private switchGoal(resolved: ResolvedGoal, note: boolean): void {
    this.takeGoal(resolved);
    if (note)
      this.messages.push({
        kind: 'note',
        text: `Switched to the agent "${resolved.goal.agentName}" (goal ${resolved.goal.id}).`,
      });
  }

  /** The goal and its tools; a delegate asks the user through AskUser and never switches or lists agents. */
  private takeGoal(resolved: ResolvedGoal): void {
    this.resolved = resolved;
    this.goal = resolved.goal;
    this.catalog = resolved.catalog ?? null;
    this.tools = this.input.task
      ? [...resolved.tools.filter((t) => t.name !== LIST_AGENTS && t.name !== CHANGE_GOAL), BUILTIN_TOOLS[ASK_USER]!]
      : resolved.tools;
  }

  /** Counts what a model call (or a delegate) spent, for the conversation and for the goal it spent it on. */
  private spend(usage: Usage, goalId = this.goal.id): void {
    this.usage = addUsage(this.usage, usage);
    this.usageByGoal[goalId] = addUsage(this.usageByGoal[goalId] ?? ZERO_USAGE, usage);
  }

  /** What was spent, said against the budget it reached (the goal's own, else the settings'); null: within budget. */
  private overBudget(): string | null {
    if (!this.budgets) return null;
    const own = this.goal.settings?.budget;
    const budget = own ?? this.settings.budget;
    if (!budget) return null;
    const source = (setting: string) => (own ? `the ${this.goal.agentName} agent's budget` : setting);
    if (budget.tokens !== undefined && this.usage.totalTokens >= budget.tokens) {
      return `${this.usage.totalTokens.toLocaleString('en-US')} tokens of its ${budget.tokens.toLocaleString('en-US')} (${source('CONVERSATION_TOKEN_BUDGET')})`;
    }
    if (budget.costUsd !== undefined && (this.usage.costUsd ?? 0) >= budget.costUsd) {
      return `${formatUsd(this.usage.costUsd ?? 0)} of its ${formatUsd(budget.costUsd)} (${source('CONVERSATION_COST_BUDGET')})`;
    }
    return null;
  }

  /** The budget is used (checked before each model call, when no tool call is pending): the conversation ends,
   * its transcript kept; a delegate's parent gets an error envelope saying why. */
  private stopForBudget(spent: string): void {
    const text = `This conversation has used its budget: ${spent}. I have stopped here; start a new conversation to go on.`;
    this.say(text);
    if (this.input.task) this.finishTask('error', text);
    else this.finish();
    this.endedBy = 'budget';
  }

  private awaitingOwnApproval(): boolean {
    return this.approval !== null && this.approval.decision === null;
  }

  private say(text: string): void {
    this.messages.push({ kind: 'agent', text, toolCalls: [] });
  }

  /** The turn is over; a delegate's turn is its task, so it ends with an envelope of `outcome`. */
  private endTurn(outcome: DelegateEnvelope['status'] = 'ok'): void {
    if (this.input.task && !this.ended) return this.finishTask(outcome);
    this.needsPlan = false;
    this.turnOpen = false;
    this.pause();
  }

  /** The agent now needs the user: publish the reply for update handlers and clients. */
  private pause(): void {
    // A delegate's question still open is what the user must answer, whatever was said since.
    const asked = this.awaitingOwnApproval() ? null : this.delegations.questionShown();
    const reply =
      asked && !this.delegations.approvalShown()
        ? `${asked.agentName} asks: ${asked.question}`
        : this.latestAgentText();
    this.replies.publish({
      promptId: this.activePrompt,
      reply,
      pendingToolCall: this.pendingApproval(),
      ended: this.ended,
    });
  }

  private latestAgentText(): string {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'user') return '';
      if (m.kind === 'agent' && m.text.trim()) return m.text;
    }
    return '';
  }

  private planRequest(): PlanRequest {
    return {
      goal: this.goal,
      tools: this.offeredTools(),
      transcript: this.transcriptRef(),
      summary: this.summary,
      agents: this.agents,
    };
  }

  /**
   * The tools the LLM is offered: all of them, or, past TOOL_SEARCH_THRESHOLD, the builtins, the tools it used lately,
   * those SearchTools found this turn, and SearchTools: hundreds of schemas on every request cost time, money and
   * worse picks. Every tool stays callable.
   */
  private offeredTools(): ToolSpec[] {
    if (!this.searchesTools()) return this.tools;
    const recent = this.recentlyUsed();
    return [
      ...this.tools.filter((t) => t.kind === 'builtin' || recent.has(t.name) || this.foundThisTurn.has(t.name)),
      SEARCH_TOOLS_SPEC,
    ];
  }

  private searchesTools(): boolean {
    const threshold = this.settings.toolSearchThreshold ?? 0;
    return threshold > 0 && this.tools.length > threshold;
  }

  /** The last `max` distinct tools the LLM called. */
  private recentlyUsed(max = 10): Set<string> {
    const used = new Set<string>();
    for (let i = this.messages.length - 1; i >= 0 && used.size < max; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'agent')
        for (const c of m.toolCalls) if (used.size < max && c.tool !== SEARCH_TOOLS) used.add(c.tool);
    }
    return used;
  }

  /** The first `count` messages by reference: only those not sent in an earlier request of this run go along. */
  private transcriptRef(count = this.messages.length): TranscriptRef {
    const from = Math.min(this.sentUpTo, count);
    this.sentUpTo = Math.max(this.sentUpTo, count);
    return { count, tail: this.messages.slice(from, count) };
  }

  private findTool(name: string): ToolSpec | undefined {
    return (
      this.tools.find((t) => t.name === name) ??
      (name === SEARCH_TOOLS && this.searchesTools() ? SEARCH_TOOLS_SPEC : undefined)
    );
  }
}

/** What a cancelled call did. A native tool stopped by its signal did not complete (its result and effect are
 * recorded only when it returns; a tool honouring ctx.signal stops before it commits); an MCP server may have acted
 * before it heard of the cancel. */
function cancelledCall(spec: ToolSpec): string {
  if (spec.readOnly) return 'Cancelled by the user before it finished.';
  if (spec.mcp)
    return `Cancelled by the user while ${spec.mcp.server}/${spec.mcp.tool} ran; it may or may not have acted. Check before trying again.`;
  return 'Cancelled by the user before it finished; it did not complete.';
}

function invalid(problems: string[]): ToolOutcome {
  return { status: 'invalid_input', problems, missing: [] };
}

/** A prompt as the transcript keeps it; a goal's starter prompt is marked, so views show the agent opening instead. */
function userMessage(prompt: QueuedPrompt): ChatMessage {
  return {
    kind: 'user',
    text: prompt.text,
    promptId: prompt.id,
    ...(prompt.starter ? { starter: true as const } : {}),
  };
}
