// Continue-as-new: a long conversation starts a new run with its goal, a summary of the older messages, its recent
// whole turns and its counters, so its history stays small. This decides what is kept and what the next run gets.
import type { QueuedPrompt } from '../../core/effects';
import type { CarriedState, ChatMessage, Usage } from '../../core/types';

/** Splits the messages: older ones to summarise, the recent whole turns to keep (at least `kept` messages). */
export function splitForCarry(messages: ChatMessage[], kept: number): { older: ChatMessage[]; recent: ChatMessage[] } {
  let start = Math.max(0, messages.length - kept);
  // Keep whole turns: a kept tool result must keep its call, so cut just before a user message.
  while (start > 0 && messages[start]?.kind !== 'user') start--;
  return { older: messages.slice(0, start), recent: messages.slice(start) };
}

/** What the next run starts from. */
export function carriedState(from: {
  summary: string;
  recent: ChatMessage[];
  /** How many messages this run holds, and the sequence number of its first. */
  held: number;
  firstSeq: number;
  queue: QueuedPrompt[];
  usage: Usage;
  usageByGoal: Record<string, Usage>;
  promptSeq: number;
  runs: number;
  delegations: number;
}): CarriedState {
  return {
    summary: from.summary,
    messages: from.recent,
    pendingPrompts: from.queue.map(({ id, text }) => ({ id, text })),
    usage: from.usage,
    usageByGoal: from.usageByGoal,
    promptSeq: from.promptSeq,
    runs: from.runs,
    delegations: from.delegations,
    firstSeq: from.firstSeq + from.held - from.recent.length,
  };
}
