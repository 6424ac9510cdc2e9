// A message the user sends while the agent is working on a turn (goal.settings.whileBusy, or the message's own):
// `enqueue` waits for the turn to end and starts the next one, as every message did before; `interrupt` joins the
// running turn, so its next plan sees both messages (the workflow cancels a model call in flight, and its streamed
// text is discarded; a tool running or approved finishes first, never cancelled mid-effect); `reject` is refused, and
// the client says the agent is busy. Runs started before steering (RunVersions.steering) queue every message.
import type { Effect } from '../../core/effects';
import type { PromptInput } from '../../core/messages';
import type * as T from '../../core/types';
import type { Prompts } from './prompts';
import { promptParts } from './prompts';
import type { Replies } from './replies';
import type { Turn } from './turn';
import type { Questions } from './questions';
import type { Delegations } from './delegations';
import type { ConversationState } from '../../core/conversation-types';

/** What steering needs of its conversation. */
export interface SteeringHost {
  readonly goal: T.Goal | undefined;
  readonly prompts: Prompts;
  readonly replies: Replies;
  readonly turn: Turn;
  readonly questions: Questions;
  readonly delegations: Delegations;
  status(): ConversationState;
}

/** Effects a message that interrupts may cancel: the model's, which change nothing outside the workflow. */
export function interruptible(kind: Effect['kind']): boolean {
  return kind === 'plan' || kind === 'vet_and_plan';
}

export class Steering {
  /** This run steers (RunVersions.steering); otherwise every message is queued. */
  enabled = false;

  constructor(private readonly convo: SteeringHost) {}

  /** What a message sent while the agent works does, for this goal (its own setting, else `enqueue`). */
  goalMode(): T.WhileBusy {
    return (this.enabled && this.convo.goal?.settings?.whileBusy) || 'enqueue';
  }

  /** The agent is working on a turn and asks nothing of the user: a model call or a tool is in flight or next. Unlike
   * status() (whose answer is recorded in search attributes and timers, so stays as it was), also while a prompt is
   * checked and planned at once, the turn's first model call with VALIDATE_PROMPTS. */
  busy(): boolean {
    const { turn, questions, delegations } = this.convo;
    const state = this.convo.status();
    if (state !== 'waiting_for_user') return state === 'working';
    return turn.open && !questions.open() && !delegations.questionShown();
  }

  /** What this message does if it arrives now: `enqueue` too when the agent is not working on a turn. */
  modeOf(input: PromptInput): T.WhileBusy {
    if (!this.enabled || !this.busy()) return 'enqueue';
    return promptParts(input).whileBusy ?? this.goalMode();
  }

  /** Why the message is refused (`reject` while the agent works), or null. */
  refusal(input: PromptInput): string | null {
    return this.modeOf(input) === 'reject'
      ? 'The agent is busy with the turn in progress: wait for its reply, or send with whileBusy "enqueue" or "interrupt"'
      : null;
  }

  /** At the open turn's next plan: the messages sent to interrupt it join, in order (each checked and screened, where
   * prompts are, before the next joins), and its reply answers all. */
  joinTurn(): void {
    const { prompts, turn, replies } = this.convo;
    while (turn.open && prompts.steering() && turn.mayJoin()) {
      const answering = prompts.active;
      const prompt = prompts.takeSteering()!;
      replies.join(answering, prompt.id);
      turn.join(prompt);
    }
  }
}
