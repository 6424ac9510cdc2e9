import type { Goal } from '../../core/types';

export default {
  id: 'goal_hr_pto',
  category: 'hr',
  agentName: 'PTO assistant',
  agentFriendlyDescription: 'Checks your paid time off and books days off for you.',
  description:
    'Help the user with paid time off: 1. CurrentPTO to tell them their balance (ask for their email). ' +
    '2. FuturePTOCalc to check a planned time off will be covered. 3. BookPTO once they confirm the dates. ' +
    'Call CompleteGoal when the booking is done or the user needs nothing more.',
  starterPrompt: 'Greet the user, say you can check and book paid time off, and ask for their work email.',
  exampleConversation: [
    'user: How much PTO do I have? I am ada@example.com',
    'agent: (calls CurrentPTO {"email":"ada@example.com"}) You have 104 hours (13 days) left.',
    'user: Can I take next Monday to Thursday off?',
    'agent: (calls FuturePTOCalc) Yes: you need 32 hours and will have 112. Shall I book it?',
    'user: yes',
    'agent: (calls BookPTO) Booked. You have 72 hours left.',
  ].join('\n'),
  tools: ['CurrentPTO', 'FuturePTOCalc', 'BookPTO'],
} satisfies Goal;
