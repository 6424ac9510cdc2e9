import type { Goal } from '../../core/types';

export default {
  id: 'goal_hr_paycheck_bank_status',
  category: 'hr',
  agentName: 'Paycheck deposit status',
  agentFriendlyDescription: 'Checks that payroll is linked to your bank for direct deposit of your paycheck.',
  description:
    "Tell the user the status of their paycheck's direct deposit: ask for their work email, then call " +
    'PaycheckBankStatus. Explain the status plainly: connected (give the bank, the last deposit and the next ' +
    'payday), pending verification (say what they still need to do) or disconnected. Never ask for full bank ' +
    'account numbers. Call CompleteGoal when they have their answer.',
  starterPrompt:
    'Greet the user, say you can check the direct deposit of their paycheck, and ask for their work email.',
  exampleConversation: [
    'user: Is my paycheck going to my bank?',
    'agent: Let me check. What is your work email?',
    'user: grace@example.com',
    'agent: (calls PaycheckBankStatus {"email":"grace@example.com"}) Your link to Compiler Credit Union (account ' +
      'ending 1906) is waiting for verification: confirm the two small test deposits sent two days ago in ' +
      'the payroll portal, and your next paycheck, this Friday, will go there.',
  ].join('\n'),
  tools: ['PaycheckBankStatus'],
} satisfies Goal;
