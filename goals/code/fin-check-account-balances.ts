import type { Goal } from '../../core/types';

export default {
  id: 'goal_fin_check_account_balances',
  category: 'finance',
  agentName: 'Account balances',
  agentFriendlyDescription: 'Shows the balances of your bank accounts: checking, savings and bitcoin.',
  description:
    'Tell the user the balances of their bank accounts. 1. FindAccount with their email or account number (ask ' +
    'for one) to validate the account. 2. AccountBalances with the account number FindAccount returned, then give ' +
    'checking, savings and bitcoin balances. This agent moves no money. Call CompleteGoal when they are done.',
  starterPrompt: 'Greet the user, say you can show their account balances, and ask for their email or account number.',
  exampleConversation: [
    "user: I'd like to check my balances",
    'agent: Sure. What is your email address or account number?',
    'user: ada@example.com',
    'agent: (calls FindAccount {"email":"ada@example.com"}) (calls AccountBalances {"accountId":"11235"}) ' +
      'Ada, your balances: checking $875.40, savings $3,200.15, bitcoin 0.1378 BTC. Thanks for banking with us these 12 years!',
  ].join('\n'),
  tools: ['FindAccount', 'AccountBalances'],
} satisfies Goal;
