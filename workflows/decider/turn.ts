// A turn: from the moment a prompt is taken up (checked, when VALIDATE_PROMPTS asks) through the model's steps until
// the agent needs the user again. This decides when the model is asked, with what, and what its answers start;
// the tool calls of a step are ToolStep's, and the end of a turn is the conversation's.
import type { Effect, QueuedPrompt, StepFailure } from '../../core/effects';
import type { PlanRequest, PlanResult, PromptVerdict } from '../../core/activity-types';
import type * as T from '../../core/types';
import type * as C from '../../core/conversation-types';
import { hookReply, UNCHECKED_TEXT } from '../../core/hooks';
import type { PromptScreening } from '../../core/hooks';
import type { Budget } from './budget';
import { applyScreening, recordDecisions, stoppedBy } from './hook-decisions';
import type { MessageLog } from './message-log';
import type { TaskMode } from './task-mode';
import type { ToolOffer } from './tool-offer';
import { PlanContexts } from './plan-contexts';
import { LOCAL_OWNER } from '../../core/blobs';

/** What a turn needs of its conversation. */
export interface TurnHost {
  readonly settings: T.Settings;
  readonly goal: T.Goal;
  readonly agents: T.AgentSummary[];
  readonly summary: string;
  readonly log: MessageLog;
  readonly budget: Budget;
  readonly offer: ToolOffer;
  readonly taskMode: TaskMode;
  /** Whose the conversation is (its memories are recalled for the owner). */
  readonly input: Partial<C.AgentGoalInput>;
  /** The model asked for these tool calls. */
  startStep(calls: T.ToolCall[]): void;
  /** The budget is used: the conversation stops, saying `spent`. */
  stopForBudget(spent: string): void;
  endTurn(outcome?: C.DelegateEnvelope['status']): void;
}

export class Turn {
  /** The model is asked next (a prompt was taken in, or a step's calls all have outcomes). */
  needsPlan = false;
  /** A prompt was taken up and its turn has not ended (it may be waiting for an approval). */
  open = false;
  /** Prompts are checked while the turn is planned (RunVersions.oneModelWait). */
  vetWhilePlanning = false;
  /** Turns taken up in this run. */
  countThisRun = 0;
  /** The model's steps in this turn. */
  private steps = 0;
  /** The user's first prompt of this run (not a starter): the conversation's title in Temporal's list. */
  private firstPrompt: string | null = null;
  /** The turn's prompt has not been before the userMessage hooks yet: the next model call's request says so. */
  private unscreened = false;
  /** A hook rewrote the prompt being checked: it is checked (and planned) again in its new words. */
  private vetAgain: QueuedPrompt | null = null;
  /** The goal and tools the model calls were sent (the planContext query reads them). */
  readonly contexts = new PlanContexts();

  constructor(private readonly convo: TurnHost) {}

  /** What the conversation is about, for lists: its first prompt, cut to `max` characters. */
  title(max: number): string | null {
    const text = this.firstPrompt?.replace(/\s+/g, ' ').trim();
    if (!text) return null;
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  }

  /** Takes up a prompt: the effect that checks or plans it, or null when it needs no model call first. */
  start(prompt: QueuedPrompt): Effect | null {
    const { convo } = this;
    if (!prompt.starter) this.firstPrompt ??= prompt.text;
    this.open = true;
    const spent = convo.budget.overBudget(convo.goal, convo.settings);
    if (spent) {
      convo.log.user(prompt);
      convo.stopForBudget(spent);
      return null;
    }
    this.steps = 0;
    convo.offer.newTurn();
    this.countThisRun++;
    this.unscreened = !prompt.starter;
    this.vetAgain = null;
    // A delegate's task comes from its parent agent, not from a user: nothing to check.
    const vet = convo.settings.validatePrompts && !prompt.starter && !convo.taskMode.task;
    if (vet && this.vetWhilePlanning) {
      // The planner needs the prompt in its transcript; a refusal then follows it, as it always has.
      convo.log.user(prompt);
      return { kind: 'vet_and_plan', prompt, request: { ...this.planRequest(), prompt: prompt.text } };
    }
    if (vet) {
      const request = {
        goal: convo.goal,
        transcript: convo.log.ref(),
        prompt: prompt.text,
        agents: convo.agents,
        ...this.screening(),
      };
      return { kind: 'validate', prompt, request };
    }
    convo.log.user(prompt);
    this.needsPlan = true;
    return null;
  }

  /** The model is asked for the next step, unless the budget is spent or the step limit reached. */
  plan(): Effect | null {
    const { convo } = this;
    const spent = convo.budget.overBudget(convo.goal, convo.settings);
    if (spent) {
      convo.stopForBudget(spent);
      return null;
    }
    if (this.steps >= (convo.goal.settings?.maxToolSteps ?? convo.settings.maxToolStepsPerTurn)) {
      convo.log.say(
        `I have taken ${this.steps} steps on this request without finishing. Tell me how you would like to continue.`,
      );
      convo.endTurn('needs_input');
      return null;
    }
    if (this.vetAgain) {
      const prompt = this.vetAgain;
      this.vetAgain = null;
      return { kind: 'vet_and_plan', prompt, request: { ...this.planRequest(), prompt: prompt.text } };
    }
    return { kind: 'plan', request: this.planRequest() };
  }

  /** The prompt's check: it goes on to the planner, or the refusal is the turn's reply. */
  applyVerdict(prompt: QueuedPrompt, verdict: PromptVerdict | StepFailure): void {
    this.convo.log.user(prompt);
    // Runs from before one-model-wait: a rewritten prompt goes on to the planner unchecked.
    if (!('failed' in verdict) && verdict.screened) return this.applyScreening(verdict.screened, null);
    if (!('failed' in verdict)) {
      this.unscreened = false;
      recordDecisions(this.convo.log, verdict.hooks);
    }
    // A failed validation call fails open: the planner still sees the prompt.
    if ('failed' in verdict || verdict.valid) {
      this.needsPlan = true;
      if (!('failed' in verdict)) this.spend(verdict.usage, verdict.model);
      return;
    }
    this.spend(verdict.usage, verdict.model);
    this.convo.log.say(verdict.reply);
    this.convo.endTurn();
  }

  /** The verdict on a prompt already in the transcript, and the plan made meanwhile (dropped when it does not fit). */
  applyVettedPlan(verdict: PromptVerdict | StepFailure, prompt: QueuedPrompt): void {
    // Failing open, as validation always has: the turn is planned on its own.
    if ('failed' in verdict) {
      this.needsPlan = true;
      return;
    }
    if (verdict.screened) return this.applyScreening(verdict.screened, prompt);
    this.unscreened = false;
    recordDecisions(this.convo.log, verdict.hooks);
    this.spend(verdict.usage, verdict.model);
    if (!verdict.valid) {
      this.convo.log.say(verdict.reply);
      this.convo.endTurn();
    } else if (verdict.plan) {
      this.applyPlan(verdict.plan);
    } else {
      this.needsPlan = true;
    }
  }

  /** The model's step: its words, and tool calls to carry out, or the turn's reply. */
  applyPlan(result: PlanResult | StepFailure): void {
    this.needsPlan = false;
    if ('failed' in result) {
      this.withholdUnchecked();
      this.convo.log.say(
        `Sorry, I could not get an answer from the language model (${result.failed}). Please try again.`,
      );
      this.convo.endTurn('error');
      return;
    }
    if (result.screened) return this.applyScreening(result.screened, null);
    this.unscreened = false;
    recordDecisions(this.convo.log, result.hooks);
    const stopped = stoppedBy(result.hooks);
    if (stopped) {
      // A hook stopped the call (or withheld its answer): what it says is the turn's reply.
      this.spend(result.usage, result.model);
      this.convo.log.say(hookReply(stopped));
      this.convo.endTurn('error');
      return;
    }
    this.steps++;
    this.spend(result.usage, result.model);
    this.convo.log.push({
      kind: 'agent',
      text: result.text,
      toolCalls: result.toolCalls,
      usage: result.usage,
      ...(result.stored ? { stored: result.stored } : {}),
    });
    if (result.toolCalls.length > 0) this.convo.startStep(result.toolCalls);
    else this.convo.endTurn();
  }

  /** A message sent to interrupt this turn joins it (Steering): the next plan sees it after the turn's own words,
   * screened by the userMessage hooks and, where prompts are checked, checked with that plan. */
  join(prompt: QueuedPrompt): void {
    const { convo } = this;
    convo.log.user(prompt);
    if (!prompt.starter) this.firstPrompt ??= prompt.text;
    // A new instruction: the model gets its full step allowance for it.
    this.steps = 0;
    this.unscreened = true;
    this.needsPlan = true;
    // Checked with what is still unchecked of the turn (a prompt whose check the interrupt cancelled): one request.
    if (this.vets())
      this.vetAgain = this.vetAgain ? { ...prompt, text: `${this.vetAgain.text}\n\n${prompt.text}` } : prompt;
  }

  /**
   * Whether a message may join now. userMessage hooks screen one prompt per model call and may rewrite it where it
   * stands, so with them a message joins only once the prompt before it has been screened (and checked); without
   * them, messages that join together are checked together.
   */
  mayJoin(): boolean {
    return !this.screensPrompts() || (!this.unscreened && !this.vetAgain);
  }

  /** Whether the model call in flight may be cancelled for a message that joins the turn: not while it screens the
   * turn's prompt with userMessage hooks (the message joins at the next plan). */
  interruptible(): boolean {
    return !(this.unscreened && this.screensPrompts());
  }

  /** The model call in flight was cancelled for a message that joins the turn: it is asked again, with that message,
   * and a prompt whose check was cancelled with it is checked with that message. */
  interrupted(effect: Effect): void {
    if (effect.kind === 'vet_and_plan') this.vetAgain = effect.prompt;
    this.needsPlan = true;
  }

  private screensPrompts(): boolean {
    return !!this.convo.settings.hooks?.includes('userMessage');
  }

  /** Prompts are checked with the plan (VALIDATE_PROMPTS; a delegate's task never is). */
  private vets(): boolean {
    return this.convo.settings.validatePrompts && !this.convo.taskMode.task && this.vetWhilePlanning;
  }

  /** The turn is over: nothing more to plan. */
  close(): void {
    this.needsPlan = false;
    this.open = false;
    this.vetAgain = null;
  }

  /**
   * The turn stopped (cancelled, or its model call failed) before the userMessage hooks had seen its prompt: with such
   * hooks on, its words are withheld, so no later request sends them unchecked. `logged`: a prompt the turn never
   * took up, just logged.
   */
  withholdUnchecked(logged = false): void {
    if ((this.unscreened || logged) && this.convo.settings.hooks?.includes('userMessage'))
      this.convo.log.rewriteLastUser(UNCHECKED_TEXT);
    this.unscreened = false;
  }

  private planRequest(): PlanRequest {
    const { goal, summary, agents, log, offer, settings, input } = this.convo;
    // The owner's memories, where the worker keeps them and the goal reads them (it does unless it says not).
    const memory = settings.memory && goal.memory?.read !== false;
    return {
      ...this.contexts.input(goal, offer.offered(log)),
      transcript: log.ref(),
      summary,
      agents,
      ...this.screening(),
      ...(memory ? { memory: { owner: input.owner ?? LOCAL_OWNER, goalId: goal.id } } : {}),
    };
  }

  private screening(): { screenPrompt?: true } {
    return this.unscreened ? { screenPrompt: true } : {};
  }

  /**
   * A hook rewrote or blocked the turn's prompt, and no model was asked: the transcript takes its new form first.
   * Blocked, the hook's reason is the reply; rewritten, it is planned (`vet`: checked and planned) in its new words.
   */
  private applyScreening(screening: PromptScreening, vet: QueuedPrompt | null): void {
    const { log } = this.convo;
    const before = log.lastUserText();
    this.unscreened = false;
    const reply = applyScreening(log, screening);
    if (this.firstPrompt === before) this.firstPrompt = log.lastUserText() || null;
    if (reply !== null) {
      log.say(reply);
      this.convo.endTurn('error');
      return;
    }
    this.needsPlan = true;
    if (vet) this.vetAgain = { ...vet, text: screening.text ?? vet.text };
  }

  /** What a model call spent counts for the goal now on, and for the model that answered. */
  private spend(usage: T.Usage, model: string | undefined): void {
    this.convo.budget.spend(usage, this.convo.goal.id, model ? { [model]: usage } : undefined);
  }
}
