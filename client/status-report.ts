// `agent status <id>`: the conversation's state, its agent, what it has spent (by agent and by model when more than
// one), a fallback model answering, a model call being retried, its delegates, and a tool's open question.
import type { ConversationStatus } from '../core/conversation-types';
import type { AgentClient } from './agent-client';
import { formatQuestion } from './question-format';
import { formatDelegations, formatSpend } from './terminal-format';

type Details = Awaited<ReturnType<AgentClient['details']>>;

export function formatStatusReport(
  id: string,
  status: ConversationStatus,
  goal: Details['goal'],
  usage: Details['usage'],
  retrying: Awaited<ReturnType<AgentClient['retrying']>>,
): string {
  const split = (label: string, by: Record<string, Parameters<typeof formatSpend>[0]> | undefined) =>
    Object.keys(by ?? {}).length > 1
      ? `\n${label}: ${Object.entries(by!)
          .map(([name, u]) => `${name} ${formatSpend(u)}`)
          .join('; ')}`
      : '';
  return (
    `${id}: ${status.state.replace(/_/g, ' ')}; agent ${goal?.agentName ?? '?'} (${goal?.id ?? '?'}); ` +
    `${formatSpend(usage.total)} over ${usage.runs} run(s)` +
    split('by agent', usage.byGoal) +
    split('by model', usage.byModel) +
    (status.fallback ? `\nanswering: ${status.fallback.model} (a fallback, LLM_FALLBACK_MODELS)` : '') +
    (retrying ? `\nthe model is not answering (${retrying.lastFailure}); retrying, attempt ${retrying.attempt}` : '') +
    (status.delegations?.length ? `\n${formatDelegations(status.delegations)}` : '') +
    (status.lastReply?.question ? `\n${status.lastReply.reply}\n${formatQuestion(status.lastReply.question, id)}` : '')
  );
}
