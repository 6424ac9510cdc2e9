// A remote A2A agent as an agent a conversation can switch to (ListAgents, the picker, a client's start): a relay goal
// of ours whose only delegate is that agent, so each request goes to it through AskAgent, durably (its task followed
// by id through a dead worker, its questions put to the user), and its answers come back in its words. The remote
// agent's own context carries from one request to the next (AskAgent passes the context its last task had).
import { normaliseCategory } from '../core/naming';
import type { AgentSummary, Goal } from '../core/types';

export function remoteGoal(agent: AgentSummary): Goal {
  return {
    id: agent.goalId,
    category: agent.category,
    agentName: agent.agentName,
    agentFriendlyDescription: agent.description,
    description:
      `You are the user's line to ${agent.agentName}, a remote agent reached over A2A: ${agent.description} ` +
      `Hand each of the user's requests to it with AskAgent (goalId ${agent.goalId}) in the user's words, with every ` +
      'detail they gave, and tell the user its answer faithfully. Do not answer in its place. Call CompleteGoal when ' +
      'the user has what they came for.',
    starterPrompt: `Greet the user on behalf of ${agent.agentName} and say in one sentence what it can do.`,
    exampleConversation: '',
    tools: [],
    delegates: [agent.goalId],
    // A relay keeps nothing of the user's and shows the remote agent none of their memories.
    memory: { read: false, write: 'never' },
  };
}

/** Whether an agent list shows the agent under the worker's GOAL_CATEGORIES (none: every agent). */
export function inCategories(agent: AgentSummary, categories: string[]): boolean {
  const wanted = new Set(categories.map(normaliseCategory).filter(Boolean));
  return wanted.size === 0 || wanted.has(normaliseCategory(agent.category));
}
