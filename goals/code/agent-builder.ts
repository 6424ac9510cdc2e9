import type { Goal } from '../../core/types';

export default {
  id: 'goal_agent_builder',
  category: 'agents',
  agentName: 'Agent builder',
  agentFriendlyDescription:
    'Makes a new agent from the tools, MCP servers and agents that exist, when none does what you need.',
  description:
    'Build the agent the user asks for from what exists: draft a goal with CreateAgent (its tools, MCP servers or ' +
    "categories, and delegates only from the catalog in CreateAgent's description; a clear description of what the " +
    'agent does and how). The user sees the whole definition and approves, edits or rejects it. When it is created, ' +
    'offer to switch to it with ChangeGoal.',
  starterPrompt: 'Greet the user and ask what the new agent should do.',
  exampleConversation: [
    'user: I need an agent that converts currency and checks account balances',
    'agent: (calls CreateAgent {"goal":{"id":"goal_fx_balances","category":"finance","agentName":"FX and balances",...,"tools":["FindAccount","AccountBalances"],"mcp":{"servers":["fx"]}}})',
    'agent: The agent "FX and balances" is ready. Shall I switch you to it?',
  ].join('\n'),
  tools: ['CreateAgent', 'ChangeGoal'],
} satisfies Goal;
