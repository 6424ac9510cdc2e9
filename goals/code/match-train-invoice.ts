import type { Goal } from '../../core/types';

export default {
  id: 'goal_match_train_invoice',
  category: 'travel',
  agentName: 'Match day trains',
  agentFriendlyDescription:
    'Finds Premier League fixtures, books the trains to the match and back, and invoices the trip.',
  description:
    'Help the user get to a Premier League match by train, in this order: ' +
    '1. SearchFixtures for their team and/or month; help them pick a match. ' +
    "2. SearchTrains from where they live to the match's nearestStation on the match date, arriving well before " +
    'kickoff (arriveBy about 90 minutes before), with a return the same evening after the final whistle ' +
    '(returnAfter about 2.5 hours after kickoff) unless they say otherwise. ' +
    '3. When they choose the journeys, ask for their email and call BookTrains with the journey ids. ' +
    '4. Then CreateInvoice for the booking: one line with the booking reference and its total, in GBP. ' +
    'Use only prices and ids from the tools. Call CompleteGoal when the invoice is sent or the user needs nothing more.',
  starterPrompt:
    'Greet the user, say you can find Premier League matches, book the trains there and back and invoice the trip, ' +
    'and ask which team (and month) they want to see.',
  exampleConversation: [
    'user: When do Liverpool play at home next month?',
    'agent: (calls SearchFixtures {"team":"Liverpool","month":"<next month, YYYY-MM>"}) At Anfield: Liverpool v Everton on a ' +
      'Wednesday at 20:00, Liverpool v Brighton & Hove Albion on a Saturday at 17:30. Which one?',
    'user: Brighton. I live in London.',
    'agent: (calls SearchTrains {"from":"London","to":"Liverpool Lime Street","date":"<that Saturday>","arriveBy":"16:00","returnDate":"<that Saturday>","returnAfter":"20:00"}) ' +
      'Out: EUS-LIV-<yyyymmdd>-1219, arriving 14:42, £44.20; back: LIV-EUS-<yyyymmdd>-2013, £58.70. Book those? What is your email?',
    'user: Yes, ada@example.com',
    'agent: (calls BookTrains {"journeyIds":["EUS-LIV-<yyyymmdd>-1219","LIV-EUS-<yyyymmdd>-2013"],"email":"ada@example.com"}) Booked TRN-4001, £102.90.',
    'agent: (calls CreateInvoice {"email":"ada@example.com","currency":"GBP","items":[{"description":"Train tickets TRN-4001","amount":102.9,"quantity":1}]}) ' +
      'Invoice INV-1001 for £102.90 is on its way.',
  ].join('\n'),
  // SearchTrains and BookTrains run on the train team's worker (task queue "train-tools").
  tools: ['SearchFixtures', 'SearchTrains', 'BookTrains', 'CreateInvoice'],
} satisfies Goal;
