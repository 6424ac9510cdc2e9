// What a conversation hands on: to its next run when it continues as new (its goal, a summary of the older messages,
// its recent whole turns and its counters, so its history stays small), to live views (the feed and the state they
// are shown), and to whoever waits for its end (the transcript). Read-only views of a Conversation.
import type { SummarizeRequest } from '../../core/activity-types';
import type * as T from '../../core/types';
import type * as C from '../../core/conversation-types';
import type { Conversation } from './conversation';

/** Splits the messages: older ones to summarise, the recent whole turns to keep (at least `kept` messages). */
export function splitForCarry(convo: Conversation): { older: T.ChatMessage[]; recent: T.ChatMessage[] } {
  const { messages } = convo;
  let start = Math.max(0, messages.length - convo.settings.recentMessagesKept);
  // Keep whole turns: a kept tool result must keep its call, so cut just before a user message.
  while (start > 0 && messages[start]?.kind !== 'user') start--;
  return { older: messages.slice(0, start), recent: messages.slice(start) };
}

/** What continue-as-new needs: the older messages to summarise (null when none), and the next run's input. */
export function prepareCarry(convo: Conversation): {
  summarize: SummarizeRequest | null;
  nextRun(summary: string): C.AgentGoalInput;
} {
  const { older, recent } = splitForCarry(convo);
  const { goal, input, log } = convo;
  return {
    summarize: older.length ? { goal, previousSummary: convo.summary, transcript: log.ref(older.length) } : null,
    nextRun: (summary) => ({
      goalId: goal.id,
      owner: input.owner,
      historyEventBudget: input.historyEventBudget,
      carried: carry(convo, summary, recent),
    }),
  };
}

/** What the next run starts from. */
export function carry(convo: Conversation, summary: string, recent: T.ChatMessage[]): C.CarriedState {
  return {
    summary,
    messages: recent,
    ...convo.prompts.carried(),
    usage: convo.usage,
    usageByGoal: convo.usageByGoal,
    usageByModel: convo.budget.usageByModel,
    ...(convo.models.inUse() ? { fallback: convo.models.inUse()! } : {}),
    runs: convo.runs,
    delegations: convo.delegations.started,
    firstSeq: convo.log.firstSeq + convo.log.length - recent.length,
    ...(convo.offer.madeHere.length ? { madeTools: convo.offer.madeHere } : {}),
    ...(convo.log.files.any ? { files: convo.log.files.carried() } : {}),
  };
}

/** The state clients are shown: working too while a prompt is checked and planned at once (Conversation.busy), when
 * status() (kept as it was: histories record it) says the agent waits. */
export function shownState(convo: Conversation): C.ConversationState {
  return convo.steering.busy() ? 'working' : convo.status();
}

/** Messages from sequence number `since` on, and the state, for live views (feedQuery). */
export function feed(convo: Conversation, since = 0): C.ConversationFeed {
  return {
    goalId: convo.goal?.id ?? convo.input.goalId ?? '',
    owner: convo.input.owner ?? null,
    state: shownState(convo),
    first: convo.log.firstSeq,
    next: convo.log.next,
    messages: convo.log.since(since),
    queued: convo.prompts.waiting(),
    pendingApproval: convo.pendingApproval(),
    question: convo.ended ? null : convo.questions.open(),
    usage: convo.usage,
    usageByGoal: convo.usageByGoal,
    usageByModel: convo.budget.usageByModel,
    whileBusy: convo.steering.goalMode(),
  };
}

/** The conversation as it ended (the workflow's result); a delegate's carries its envelope for the parent. */
export function transcript(convo: Conversation): C.Transcript {
  const { goal, endedBy, summary, messages, usage } = convo;
  const envelope = convo.taskMode.envelope;
  const usageByModel = convo.budget.usageByModel;
  return { goalId: goal.id, endedBy, summary, messages, usage, usageByModel, ...(envelope ? { envelope } : {}) };
}
