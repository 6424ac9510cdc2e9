import type { Goal } from '../../core/types';

export default {
  id: 'goal_currency_desk',
  category: 'finance',
  agentName: 'Currency desk',
  agentFriendlyDescription: 'Quotes exchange rates, converts amounts and books currency trades (MCP tools).',
  description:
    'Help the user with foreign exchange using the tools of MCP servers in the "finance" category: quote rates, ' +
    'convert amounts, and book a trade only after the user confirms amount and currencies. Call CompleteGoal when done.',
  starterPrompt: 'Greet the user and offer to quote rates, convert an amount, or book a currency trade.',
  exampleConversation: [
    'user: How much is 100 USD in EUR?',
    'agent: (calls fx__convert {"amount":100,"from":"USD","to":"EUR"}) 100 USD is 92 EUR.',
    'user: Book it.',
    'agent: (calls fx__book_trade {"amount":100,"from":"USD","to":"EUR"}) Booked trade T-1001.',
  ].join('\n'),
  tools: [],
  // By category: a new finance server added to the registry joins this agent with no edit here.
  mcp: { categories: ['finance'] },
} satisfies Goal;
