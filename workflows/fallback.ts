// A model call that moves down the goal's fallback models while the one asked keeps failing in a way another model
// could fix (the provider down, overloaded, rate limiting or hanging past LLM_FALLBACK_AFTER), never for a request no
// model would take (bad request, credentials, configuration). Decided here, in the workflow, from the failure that
// history records, so a replay or a worker that dies mid-switch makes the same switch again.
import { ActivityFailure, ApplicationFailure, TemporalFailure, TimeoutFailure } from '@temporalio/common';
import { patched } from '@temporalio/workflow';
import type { ModelChoice } from '../core/activity-types';
import { FailureTypes } from '../core/activity-types';
import type { StepFailure } from '../core/effects';
import type { Conversation } from './decider/conversation';
import { switchNote } from './decider/models';
import { isCancelled, reason } from './failures';
import { PATCHES } from './versions';

/** Failures another model could answer past. */
const ANOTHER_MODEL_COULD: readonly string[] = [FailureTypes.LlmUnavailable, FailureTypes.LlmRateLimited];

/** `call` with the goal's model in use (`choice` empty: its own), then its fallbacks while that one cannot answer. */
export async function withFallback<R>(
  convo: Conversation,
  call: (choice: ModelChoice, giveUpSeconds: number | undefined) => Promise<R>,
): Promise<R | StepFailure> {
  const { models, settings, goal } = convo;
  const chain = models.chain(goal, settings);
  for (let at = models.start(chain, settings, Date.now()); ; at++) {
    const link = chain[at]!;
    const giveUp = models.giveUpSeconds(chain, at, settings);
    const choice = at < chain.length - 1 ? { ...link.choice, giveUpSetting: 'LLM_FALLBACK_AFTER' } : link.choice;
    try {
      return await call(choice, giveUp);
    } catch (err) {
      if (isCancelled(err)) throw err;
      const next = chain[at + 1];
      // A conversation recorded before fallbacks existed ended its turn here.
      if (!next || !anotherModelCould(err) || !patched(PATCHES.modelFallback)) return { failed: reason(err) };
      models.switchTo(next, Date.now());
      convo.log.note(switchNote(link.name, next.name, reason(err)), true);
    }
  }
}

function anotherModelCould(err: unknown): boolean {
  for (let e: unknown = err; e instanceof TemporalFailure; e = e.cause) {
    if (e instanceof TimeoutFailure) return true; // MODEL_GIVE_UP ran out before the activity said why
    if (e instanceof ApplicationFailure) return ANOTHER_MODEL_COULD.includes(e.type ?? '');
    if (!(e instanceof ActivityFailure)) return false;
  }
  return false;
}
