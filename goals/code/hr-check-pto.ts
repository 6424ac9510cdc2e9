import type { Goal } from '../../core/types';

export default {
  id: 'goal_hr_check_pto',
  category: 'hr',
  agentName: 'Check PTO',
  agentFriendlyDescription: 'Tells you how much paid time off you have, now or by a future date. Books nothing.',
  description:
    'Tell the user how much paid time off they have. 1. CurrentPTO with their work email (ask for it) for the ' +
    'balance today, in hours and days. 2. Optionally, when they mention dates, FuturePTOCalc to say whether the ' +
    'PTO accrued by then will cover that time off. This agent only reads balances: if the user wants to book ' +
    'days off, say the PTO assistant (goal_hr_pto) does that. Call CompleteGoal when they have their answer.',
  starterPrompt: 'Greet the user, say you can tell them their PTO balance, and ask for their work email.',
  exampleConversation: [
    'user: How much time off do I have left?',
    'agent: I can check that. What is your work email?',
    'user: ada@example.com',
    'agent: (calls CurrentPTO {"email":"ada@example.com"}) Ada, you have 104 hours (13 days) of PTO left.',
    'user: Will that cover next Monday to Thursday?',
    'agent: (calls FuturePTOCalc {"email":"ada@example.com","startDate":"<next Monday, YYYY-MM-DD>","endDate":"<that Thursday>"}) ' +
      'Yes: those 4 days need 32 hours, and you will have 112 by then. The PTO assistant can book them for you.',
    'user: thanks',
    'agent: (calls CompleteGoal) Enjoy your time off!',
  ].join('\n'),
  tools: ['CurrentPTO', 'FuturePTOCalc'],
} satisfies Goal;
