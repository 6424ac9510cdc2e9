import type { Goal } from '../../core/types';

export default {
  id: 'goal_general',
  category: 'general',
  agentName: 'General assistant',
  agentFriendlyDescription: 'Uses every tool of every MCP server in the registry, including ones added while you chat.',
  description:
    'Help the user with whatever they ask, using the tools available to you. Tools come from MCP servers and can ' +
    'appear or disappear between turns; use what is there now. Call CompleteGoal when the user is done.',
  starterPrompt: 'Greet the user briefly and say you can use the tools of the connected MCP servers.',
  exampleConversation: ['user: What tools do you have?', 'agent: I can convert currencies (fx__convert) and ...'].join(
    '\n',
  ),
  tools: [],
  mcp: { servers: ['*'] },
} satisfies Goal;
