import type { Goal } from '../../core/types';

export default {
  id: 'goal_ecomm_list_orders',
  category: 'ecommerce',
  agentName: 'List all orders',
  agentFriendlyDescription: 'Lists all your orders, then gives details and tracking for any of them.',
  description:
    'Show the user all their orders. 1. ListOrders with their email (ask for it). Then, in a loop until they are ' +
    'done: 2. GetOrder for the order they pick (its items, status and date). 3. TrackPackage with its tracking ' +
    'number, only when the order is shipped or delivered; for other orders do not mention tracking. ' +
    'Call CompleteGoal when the user needs nothing more.',
  starterPrompt: 'Greet the user, say you can list their orders and look into any of them, and ask for their email.',
  exampleConversation: [
    "user: I'd like to see all my orders",
    'agent: Sure. What is your email address?',
    'user: ada@example.com',
    'agent: (calls ListOrders {"email":"ada@example.com"}) You have two orders: ORD-1002 (processing, placed ' +
      'yesterday) and ORD-1001 (shipped, placed ten days ago). Want details on one?',
    'user: ORD-1001',
    'agent: (calls GetOrder {"orderId":"ORD-1001"}) (calls TrackPackage {"trackingNumber":"1Z999AA10123456784"}) ' +
      'Your mechanical keyboard is with UPS, in transit in Louisville, KY, due <its estimatedDelivery>. Anything else?',
    'user: no, thanks',
    'agent: (calls CompleteGoal) Have a great day!',
  ].join('\n'),
  tools: ['ListOrders', 'GetOrder', 'TrackPackage'],
} satisfies Goal;
