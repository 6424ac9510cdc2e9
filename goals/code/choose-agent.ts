import type { Goal } from '../../core/types';

export default {
  id: 'goal_choose_agent',
  category: 'agents',
  agentName: 'Agent picker',
  agentFriendlyDescription: 'Helps you pick the agent for what you want to do, then hands you over.',
  description:
    'Help the user choose an agent. List the available agents with ListAgents, then switch to the one that ' +
    "fits the user's request with ChangeGoal. When the user has already said what they want, switch straight away.",
  starterPrompt: 'Welcome the user, list the agents you can hand them to (use ListAgents), and ask what they need.',
  exampleConversation: [
    'user: Hi',
    'agent: (calls ListAgents) I can help with: PTO questions, order status. What would you like to do?',
    'user: Where is my order?',
    'agent: (calls ChangeGoal with goalId goal_order_status)',
  ].join('\n'),
  // When no agent does what the user needs, the picker can make one (the user approves it first).
  tools: ['ListAgents', 'ChangeGoal', 'CreateAgent'],
} satisfies Goal;
