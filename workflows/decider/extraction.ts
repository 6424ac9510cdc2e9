// Whether a conversation that has ended proposes memories from its transcript (its goal's `memory.extract`, off by
// default), and what the proposeMemories activity is asked. Ends that count: the user ending the chat, the agent
// completing the goal, and the conversation left idle (IDLE_TIMEOUT) — each closes an exchange with a person, and idle
// is how most chats end. Not the budget's stop: one more model call would spend past it. Not a delegate's or an
// unattended run's (task mode): their words are another agent's or a schedule's, not a person's. Not a conversation
// in which the user said nothing (the starter prompt is the goal's).
import type { ProposeMemoriesRequest } from '../../core/activity-types';
import { LOCAL_OWNER } from '../../core/blobs';
import type { Conversation } from './conversation';
import { ownModel } from './models';

export function extractionRequest(convo: Conversation): ProposeMemoriesRequest | null {
  const { goal, settings, input, log } = convo;
  if (!convo.ended || convo.endedBy === 'budget' || input.task) return null;
  if (!settings.memory || !goal.memory?.extract) return null;
  if (!log.messages.some((m) => m.kind === 'user' && !m.starter)) return null;
  // The conversation's model: the fallback answering for the goal's own, when one does.
  const fallback = convo.models.inUse();
  return {
    goal,
    owner: input.owner ?? LOCAL_OWNER,
    transcript: log.ref(),
    ...(fallback ? { model: fallback.model, fallbackFrom: ownModel(goal, settings) } : {}),
  };
}
