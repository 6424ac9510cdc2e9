import type { Goal } from '../../core/types';

export default {
  id: 'goal_event_flight_invoice',
  category: 'travel',
  agentName: 'Events, flights and invoice',
  agentFriendlyDescription:
    'Finds festivals and events in Australia and New Zealand, searches flights to them, and invoices the trip.',
  description:
    'Help the user plan a trip to an event in Australia or New Zealand, in this order: ' +
    '1. FindEvents for the city (or the whole country) and month they want; suggest events elsewhere that month if there are none. ' +
    "2. Once they pick an event, ask where they fly from (and their dates if unsure: arrive before the event's start date) " +
    "and call SearchFlights to the event's nearestAirport. Present the cheapest options. " +
    '3. When they choose a flight, ask for their email and call CreateInvoice with one line for that flight (its price ' +
    "and currency, quantity = passengers). Do not invent prices: use the tools' results. " +
    'Call CompleteGoal when the invoice is sent or the user needs nothing more.',
  starterPrompt:
    'Greet the user, say you can find events in Australia and New Zealand, search flights to them and invoice the ' +
    'trip, and ask which city (or country) and month they have in mind.',
  exampleConversation: [
    'user: Anything on in Melbourne in March?',
    'agent: (calls FindEvents {"city":"Melbourne","month":"March"}) In Melbourne in March: the Melbourne Food and ' +
      'Wine Festival (13 to 22 March) and the Melbourne International Comedy Festival (from 25 March). Which one, and where are you flying from?',
    'user: The food festival. I fly from San Francisco on March 12.',
    'agent: (calls SearchFlights {"origin":"SFO","destination":"MEL","date":"<that March 12, YYYY-MM-DD>"}) The cheapest is NZ 212 at 1,180 USD, ' +
      'one stop... Shall I invoice it? What is your email?',
    'user: Yes, ada@example.com',
    'agent: (calls CreateInvoice {"email":"ada@example.com","currency":"USD","items":[{"description":"Flight NZ 212 SFO→MEL on <that day>","amount":1180,"quantity":1}]}) ' +
      'Invoice INV-1001 for 1,180 USD is on its way to ada@example.com, due in 14 days.',
  ].join('\n'),
  tools: ['FindEvents', 'SearchFlights', 'CreateInvoice'],
} satisfies Goal;
