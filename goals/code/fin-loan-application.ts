import type { Goal } from '../../core/types';

export default {
  id: 'goal_fin_loan_application',
  category: 'finance',
  agentName: 'Easy loan',
  agentFriendlyDescription: 'Takes a personal loan application (up to $50,000) and gives you its reference id.',
  description:
    'Help the user apply for a personal loan. 1. FindAccount with their email or account number (ask for one) to ' +
    'validate their account. 2. Ask the amount, and optionally the term in months (6 to 84, default 36) and the ' +
    'purpose. 3. ApplyForLoan: the user approves the submission. Give them the reference id, the estimated monthly ' +
    'payment and the next step. Call CompleteGoal when they are done.',
  starterPrompt: 'Greet the user, say you can take a loan application, and ask for their email or account number.',
  exampleConversation: [
    "user: I'd like to apply for a loan",
    'agent: Happy to help. What is your email address or account number?',
    'user: grace@example.com',
    'agent: (calls FindAccount {"email":"grace@example.com"}) Thanks Grace, account 81321 is valid. How much would ' +
      'you like to borrow, and over how many months?',
    'user: $5,000 over 24 months, for a new laptop',
    'agent: (calls ApplyForLoan {"accountId":"81321","amount":5000,"termMonths":24,"purpose":"new laptop"}; the ' +
      'user approves) Submitted: reference LOAN-0001, about $225.91 a month. You will hear about final approval ' +
      'within three business days.',
  ].join('\n'),
  tools: ['FindAccount', 'ApplyForLoan'],
} satisfies Goal;
