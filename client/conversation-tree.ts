// A conversation and its delegates (AskAgent), each with theirs, down the tree: what `agent tree` and `agent history`
// show of a conversation that handed work to other agents.
import type { ChatMessage } from '../core/types';
import type { ConversationStatus, Delegation, DelegationNode } from '../core/conversation-types';

/** What the trees read of a conversation (AgentClient is one). */
export interface ConversationReader {
  details(id: string): Promise<{ goal: { id: string; agentName: string } | null | undefined }>;
  status(id: string): Promise<Pick<ConversationStatus, 'state'>>;
  history(id: string): Promise<ChatMessage[]>;
  delegations(id: string): Promise<Delegation[]>;
}

export interface HistoryTree {
  messages: ChatMessage[];
  delegates: Map<string, HistoryTree & { agentName: string; childId: string }>;
}

/** The conversation and its delegates, with their state and, once done, their envelopes. */
export async function delegationTree(agents: ConversationReader, id: string): Promise<DelegationNode> {
  const { goal } = await agents.details(id);
  const { state } = await agents.status(id);
  return {
    id,
    goalId: goal?.id ?? '?',
    agentName: goal?.agentName ?? '?',
    state,
    children: await delegatesOf(agents, id),
  };
}

/** The history with each delegate's folded under its AskAgent call (by call id). */
export async function historyTree(agents: ConversationReader, id: string): Promise<HistoryTree> {
  const messages = await agents.history(id);
  const entries = await Promise.all(
    (await agents.delegations(id)).map(
      async (d) =>
        [d.callId, { agentName: d.agentName, childId: d.childId, ...(await historyTree(agents, d.childId)) }] as const,
    ),
  );
  return { messages, delegates: new Map(entries) };
}

async function delegatesOf(agents: ConversationReader, id: string): Promise<DelegationNode[]> {
  return Promise.all(
    (await agents.delegations(id)).map(async (d) => ({
      id: d.childId,
      goalId: d.goalId,
      agentName: d.agentName,
      state: d.state,
      task: d.task,
      envelope: d.envelope,
      children: await delegatesOf(agents, d.childId),
    })),
  );
}
