// The conversation's decisions, as a pure class: what the next step is and how a step's outcome changes the
// state. The workflow only performs steps (schedules activities); unit tests drive this class without Temporal.
import { isBuiltinTool } from './builtin-tools';
import { checkArgs } from './check-args';
import {
  addUsage,
  ZERO_USAGE,
  type AgentReply,
  type CatalogSummary,
  type CarriedState,
  type ChatMessage,
  type ConfirmDecision,
  type Goal,
  type PendingApproval,
  type PlanResult,
  type PromptVerdict,
  type ResolvedGoal,
  type Settings,
  type ToolCall,
  type ToolOutcome,
  type ToolSpec,
  type Transcript,
  type Usage,
} from './types';

export interface QueuedPrompt {
  id: number;
  text: string;
  /** The goal's starter prompt: the agent opens the conversation itself; never validated. */
  starter?: boolean;
}

export type Step =
  | { kind: 'validate'; prompt: QueuedPrompt }
  | { kind: 'plan' }
  | { kind: 'tool'; call: ToolCall; spec: ToolSpec }
  | { kind: 'builtin'; call: ToolCall }
  | { kind: 'switch_goal'; goalId: string }
  /** Re-resolve the goal's tools before a turn: MCP servers may have appeared or gone since the last one. */
  | { kind: 'refresh_tools'; promptId: number }
  | { kind: 'idle' };

/** What a builtin tool did, decided by the workflow (it may need activities, e.g. to load a goal). */
export interface BuiltinEffect {
  outcome: ToolOutcome;
  switchTo?: ResolvedGoal;
  end?: boolean;
}

/** A step that failed after its retries: the reason, shown to the user or the LLM. */
export interface StepFailure {
  failed: string;
}

export class Conversation {
  // Set by begin(): the first activities read them, but handlers must exist before the first await.
  settings!: Settings;
  goal!: Goal;
  tools: ToolSpec[] = [];
  catalog: CatalogSummary | null = null;
  started = false;
  /** Set by the workflow for runs that discover tools every turn (a versioned change: older runs did not). */
  refreshToolsEachTurn = false;
  messages: ChatMessage[];
  summary: string;
  usage: Usage;
  ended = false;
  endedBy: Transcript['endedBy'] = 'user';
  /** How many times the agent stopped to wait for the user; confirm updates wait for it to move. */
  pauses = 0;
  lastReply: AgentReply | null = null;
  turnsThisRun = 0;
  readonly runs: number;

  private queue: QueuedPrompt[];
  private promptSeq: number;
  private calls: ToolCall[] = [];
  private approval: { call: ToolCall; decision: ConfirmDecision | null } | null = null;
  private needsPlan = false;
  private stepsThisTurn = 0;
  private activePrompt = 0;
  private goalChange: string | null = null;
  private watched = new Map<number, AgentReply | null>();
  private toolsCheckedFor = 0;

  constructor(private readonly carried?: CarriedState) {
    this.messages = carried ? [...carried.messages] : [];
    this.summary = carried?.summary ?? '';
    this.usage = carried?.usage ?? ZERO_USAGE;
    this.queue = carried ? [...carried.pendingPrompts] : [];
    this.promptSeq = carried?.promptSeq ?? 0;
    this.runs = (carried?.runs ?? 0) + 1;
  }

  /** Starts the conversation once settings and goal are loaded; a new one opens with the goal's starter prompt. */
  begin(settings: Settings, resolved: ResolvedGoal): void {
    this.settings = settings;
    this.goal = resolved.goal;
    this.tools = resolved.tools;
    this.catalog = resolved.catalog ?? null;
    this.started = true;
    if (!this.carried) this.queue.unshift({ id: ++this.promptSeq, text: this.goal.starterPrompt, starter: true });
    // The tools were resolved just now: the first turn needs no second look.
    this.toolsCheckedFor = this.queue[0]?.id ?? 0;
  }

  // ---- inputs from handlers -------------------------------------------------------------------------------

  /** Queues a user prompt; `watch` keeps its reply for an update handler to collect. */
  enqueuePrompt(text: string, watch = false): number {
    const id = ++this.promptSeq;
    this.queue.push({ id, text });
    if (watch) this.watched.set(id, null);
    return id;
  }

  /** Pure: whether the watched prompt has its reply yet. Safe inside condition(). */
  hasReply(promptId: number): boolean {
    return (this.watched.get(promptId) ?? null) !== null;
  }

  /** The reply to a watched prompt, once the agent needs the user again; collecting it stops the watch. */
  collectReply(promptId: number): AgentReply | null {
    const reply = this.watched.get(promptId) ?? null;
    this.watched.delete(promptId);
    return reply;
  }

  hasWatchers(): boolean {
    return this.watched.size > 0;
  }

  /** Returns why a confirm is refused, or null when it was taken. */
  confirm(decision: ConfirmDecision): string | null {
    const refusal = this.confirmRefusal(decision);
    if (refusal === null && this.approval) this.approval.decision = decision;
    return refusal;
  }

  confirmRefusal(decision: ConfirmDecision): string | null {
    if (this.ended) return 'the conversation has ended';
    if (!this.approval) return 'no tool call is waiting for approval';
    if (this.approval.decision) return 'this tool call was already answered';
    if (decision.callId && decision.callId !== this.approval.call.id) {
      return `tool call ${decision.callId} is not the pending one (${this.approval.call.id})`;
    }
    if (decision.approve === false && !decision.reason?.trim()) return 'a rejection needs a reason';
    return null;
  }

  endChat(): void {
    if (this.ended) return;
    this.ended = true;
    this.endedBy = 'user';
    this.pause();
  }

  requestGoalChange(goalId: string): void {
    if (!this.ended) this.goalChange = goalId;
  }

  // ---- queries --------------------------------------------------------------------------------------------

  pendingApproval(): PendingApproval | null {
    if (!this.approval || this.approval.decision) return null;
    const spec = this.findTool(this.approval.call.tool);
    return { call: this.approval.call, tool: this.approval.call.tool, description: spec?.description ?? '' };
  }

  status(): 'waiting_for_user' | 'working' | 'awaiting_approval' | 'ended' {
    if (this.ended) return 'ended';
    if (!this.started) return 'working';
    if (this.pendingApproval() && this.queue.length === 0 && !this.goalChange) return 'awaiting_approval';
    return this.hasWork() ? 'working' : 'waiting_for_user';
  }

  /** Pure: whether nextStep() would find something to do. Safe inside condition(). */
  hasWork(): boolean {
    if (this.ended) return true;
    if (!this.started) return false;
    if (this.calls.length > 0) {
      const waiting = this.approval !== null && this.approval.decision === null;
      return !waiting || this.queue.length > 0 || this.goalChange !== null;
    }
    return this.goalChange !== null || this.needsPlan || this.queue.length > 0;
  }

  /** Between turns: no tool call, plan or approval in flight. Continue-as-new happens only here. */
  betweenTurns(): boolean {
    return this.calls.length === 0 && !this.needsPlan && this.approval === null;
  }

  // ---- the loop's two verbs -------------------------------------------------------------------------------

  /** Decides the next step, applying purely local transitions (arg checks, rejections) on the way. */
  nextStep(): Step {
    for (;;) {
      if (this.ended) return { kind: 'idle' };
      if (this.calls.length > 0) {
        const step = this.nextToolStep();
        if (step) return step;
        continue;
      }
      if (this.goalChange !== null) {
        const goalId = this.goalChange;
        this.goalChange = null;
        return { kind: 'switch_goal', goalId };
      }
      if (this.needsPlan) {
        if (this.stepsThisTurn >= (this.goal.settings?.maxToolSteps ?? this.settings.maxToolStepsPerTurn)) {
          this.say(
            `I have taken ${this.stepsThisTurn} steps on this request without finishing. ` +
              'Tell me how you would like to continue.',
          );
          this.endTurn();
          continue;
        }
        return { kind: 'plan' };
      }
      const next = this.queue[0];
      if (!next) return { kind: 'idle' };
      // Only MCP tools can change while a conversation runs; goals without them skip the look.
      if (this.refreshToolsEachTurn && this.goal.mcp && this.toolsCheckedFor !== next.id) return { kind: 'refresh_tools', promptId: next.id };
      const prompt = this.queue.shift()!;
      this.activePrompt = prompt.id;
      this.stepsThisTurn = 0;
      this.turnsThisRun++;
      if (this.settings.validatePrompts && !prompt.starter) return { kind: 'validate', prompt };
      this.messages.push({ kind: 'user', text: prompt.text, promptId: prompt.id });
      this.needsPlan = true;
    }
  }

  apply(step: Step, result: unknown): void {
    switch (step.kind) {
      case 'validate':
        return this.applyVerdict(step.prompt, result as PromptVerdict | StepFailure);
      case 'plan':
        return this.applyPlan(result as PlanResult | StepFailure);
      case 'tool':
        return this.recordOutcome(step.call, result as ToolOutcome);
      case 'builtin':
        return this.applyBuiltin(step.call, result as BuiltinEffect);
      case 'switch_goal':
        return this.applyGoalSwitch(result as ResolvedGoal | StepFailure);
      case 'refresh_tools':
        return this.applyToolRefresh(step.promptId, result as ResolvedGoal | StepFailure);
      case 'idle':
        return;
    }
  }

  // ---- state carried over and handed back -----------------------------------------------------------------

  /** Splits history for continue-as-new: older messages to summarise, recent whole turns to keep. */
  splitForCarry(): { older: ChatMessage[]; recent: ChatMessage[] } {
    let start = Math.max(0, this.messages.length - this.settings.recentMessagesKept);
    // Keep whole turns: a kept tool result must keep its call, so cut just before a user message.
    while (start > 0 && this.messages[start]?.kind !== 'user') start--;
    return { older: this.messages.slice(0, start), recent: this.messages.slice(start) };
  }

  carry(summary: string, recent: ChatMessage[]): CarriedState {
    return {
      summary,
      messages: recent,
      pendingPrompts: this.queue.map(({ id, text }) => ({ id, text })),
      usage: this.usage,
      promptSeq: this.promptSeq,
      runs: this.runs,
    };
  }

  transcript(): Transcript {
    return { goalId: this.goal.id, endedBy: this.endedBy, summary: this.summary, messages: this.messages, usage: this.usage };
  }

  // ---- internals ------------------------------------------------------------------------------------------

  private nextToolStep(): Step | null {
    const call = this.calls[0]!;
    if (this.approval?.call.id === call.id && this.approval.decision === null) {
      if (this.queue.length === 0 && this.goalChange === null) return { kind: 'idle' };
      // The user moved on instead of answering: the proposed calls are declined, with the reason.
      this.declineRemaining('the user sent a new message instead of approving');
      return null;
    }
    const spec = this.findTool(call.tool);
    if (!spec) {
      const known = this.tools.map((t) => t.name).join(', ');
      this.recordOutcome(call, invalid([`unknown tool "${call.tool}"; available tools: ${known}`]));
      return null;
    }
    if (isBuiltinTool(spec.name)) return { kind: 'builtin', call };
    const decision = this.approval?.call.id === call.id ? this.approval.decision : null;
    if (decision?.approve === false) {
      this.recordOutcome(call, { status: 'rejected', reason: decision.reason });
      return null;
    }
    if (decision?.approve && decision.args) call.args = decision.args;
    const check = checkArgs(spec.inputSchema, call.args);
    if (check.problems.length > 0) {
      this.recordOutcome(call, { status: 'invalid_input', problems: check.problems, missing: check.missing });
      return null;
    }
    if (!decision && this.needsApproval(spec)) {
      this.approval = { call, decision: null };
      this.pause();
      return { kind: 'idle' };
    }
    return { kind: 'tool', call, spec };
  }

  /** The tool's own policy, then the goal's, then SHOW_CONFIRM; a goal may tighten a tool's `never`, not loosen `always`. */
  private needsApproval(spec: ToolSpec): boolean {
    if (spec.approval === 'always') return true;
    const goalPolicy = this.goal.settings?.approval;
    if (goalPolicy === 'always') return true;
    if (spec.approval === 'never' || goalPolicy === 'never') return false;
    return this.settings.showConfirm;
  }

  private declineRemaining(reason: string): void {
    for (const call of [...this.calls]) this.recordOutcome(call, { status: 'rejected', reason });
    // The new prompt starts a new turn; do not plan on the declined calls first.
    this.needsPlan = false;
  }

  private recordOutcome(call: ToolCall, outcome: ToolOutcome): void {
    this.messages.push({ kind: 'tool', call, outcome });
    this.calls = this.calls.filter((c) => c.id !== call.id);
    if (this.approval?.call.id === call.id) this.approval = null;
    if (this.calls.length === 0) this.needsPlan = true;
  }

  private applyVerdict(prompt: QueuedPrompt, verdict: PromptVerdict | StepFailure): void {
    this.messages.push({ kind: 'user', text: prompt.text, promptId: prompt.id });
    // A failed validation call fails open: the planner still sees the prompt.
    if ('failed' in verdict || verdict.valid) {
      this.needsPlan = true;
      if (!('failed' in verdict)) this.usage = addUsage(this.usage, verdict.usage);
      return;
    }
    this.usage = addUsage(this.usage, verdict.usage);
    this.say(verdict.reply);
    this.endTurn();
  }

  private applyPlan(result: PlanResult | StepFailure): void {
    this.needsPlan = false;
    if ('failed' in result) {
      this.say(`Sorry, I could not get an answer from the language model (${result.failed}). Please try again.`);
      this.endTurn();
      return;
    }
    this.stepsThisTurn++;
    this.usage = addUsage(this.usage, result.usage);
    this.messages.push({ kind: 'agent', text: result.text, toolCalls: result.toolCalls, usage: result.usage });
    if (result.toolCalls.length > 0) this.calls = [...result.toolCalls];
    else this.endTurn();
  }

  private applyBuiltin(call: ToolCall, effect: BuiltinEffect): void {
    this.recordOutcome(call, effect.outcome);
    // The tool result already says where the conversation went; the new system prompt does the rest.
    if (effect.switchTo) this.switchGoal(effect.switchTo, false);
    if (effect.end) {
      this.calls = [];
      this.needsPlan = false;
      this.ended = true;
      this.endedBy = 'goal_complete';
      this.pause();
    }
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
    const after = new Set(result.tools.map((t) => t.name));
    const added = [...after].filter((n) => !before.has(n));
    const removed = [...before].filter((n) => !after.has(n));
    if (added.length || removed.length) {
      const parts = [added.length && `new: ${added.join(', ')}`, removed.length && `no longer available: ${removed.join(', ')}`];
      this.messages.push({ kind: 'note', text: `Tools changed since the last turn (${parts.filter(Boolean).join('; ')}).` });
    }
    this.goal = result.goal;
    this.tools = result.tools;
    this.catalog = result.catalog ?? null;
  }

  private switchGoal(resolved: ResolvedGoal, note: boolean): void {
    this.goal = resolved.goal;
    this.tools = resolved.tools;
    this.catalog = resolved.catalog ?? null;
    if (note) this.messages.push({ kind: 'note', text: `Switched to the agent "${resolved.goal.agentName}" (goal ${resolved.goal.id}).` });
  }

  private say(text: string): void {
    this.messages.push({ kind: 'agent', text, toolCalls: [] });
  }

  private endTurn(): void {
    this.needsPlan = false;
    this.pause();
  }

  /** The agent now needs the user: publish the reply for update handlers and clients. */
  private pause(): void {
    this.pauses++;
    const reply: AgentReply = {
      promptId: this.activePrompt,
      reply: this.latestAgentText(),
      pendingToolCall: this.pendingApproval(),
      ended: this.ended,
    };
    this.lastReply = reply;
    if (this.watched.has(this.activePrompt) && this.watched.get(this.activePrompt) === null) {
      this.watched.set(this.activePrompt, reply);
    }
    if (this.ended) for (const id of this.watched.keys()) if (this.watched.get(id) === null) this.watched.set(id, reply);
  }

  private latestAgentText(): string {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'user') return '';
      if (m.kind === 'agent' && m.text.trim()) return m.text;
    }
    return '';
  }

  private findTool(name: string): ToolSpec | undefined {
    return this.tools.find((t) => t.name === name);
  }
}

function invalid(problems: string[]): ToolOutcome {
  return { status: 'invalid_input', problems, missing: [] };
}
