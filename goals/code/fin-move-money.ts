import type { Goal } from '../../core/types';

export default {
  id: 'goal_fin_move_money',
  category: 'finance',
  agentName: 'Money movement',
  agentFriendlyDescription: 'Moves money between your checking and savings, or to another account.',
  description:
    'Help the user move money. 1. FindAccount with their email or account number (ask for one). ' +
    '2. AccountBalances so they see what they have. 3. Ask how much, from which of their accounts (checking or ' +
    'savings) and to where (their other account, or another account number), then MoveMoney with exactly what ' +
    'they said: the user approves the transfer before it runs. Report the confirmation id and the new balances. ' +
    'Never move money the user did not ask for. Call CompleteGoal when they are done.',
  starterPrompt: 'Greet the user, say you can move money between accounts, and ask for their email or account number.',
  exampleConversation: [
    "user: I'd like to transfer some money",
    'agent: Sure. What is your email address or account number?',
    'user: 11235',
    'agent: (calls FindAccount {"accountId":"11235"}) (calls AccountBalances {"accountId":"11235"}) ' +
      'Ada, you have $875.40 in checking and $3,200.15 in savings. How much would you like to move, and where?',
    'user: Move $500 from savings to checking',
    'agent: (calls MoveMoney {"accountId":"11235","from":"savings","to":"checking","amount":500}; the user approves) ' +
      'Done, confirmation TRF-0001: checking is now $1,375.40 and savings $2,700.15.',
  ].join('\n'),
  tools: ['FindAccount', 'AccountBalances', 'MoveMoney'],
} satisfies Goal;
