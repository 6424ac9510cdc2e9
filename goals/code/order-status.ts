import type { Goal } from '../../core/types';

export default {
  id: 'goal_order_status',
  category: 'ecommerce',
  agentName: 'Order status',
  agentFriendlyDescription: 'Finds your orders, tells you their status and tracks their packages.',
  description:
    'Help the user find out where their order is: ListOrders by email when they do not know the order id, ' +
    'GetOrder for its status and items, TrackPackage with its tracking number once shipped. ' +
    'Call CompleteGoal when the user has what they need.',
  starterPrompt: 'Greet the user and ask for their order id, or their email if they do not have it.',
  exampleConversation: [
    'user: Where is my order ORD-1001?',
    'agent: (calls GetOrder {"orderId":"ORD-1001"}) It shipped with tracking number 1Z999AA10123456784.',
    'agent: (calls TrackPackage) It is in transit in Louisville, KY, due on <its estimatedDelivery>.',
  ].join('\n'),
  tools: ['ListOrders', 'GetOrder', 'TrackPackage'],
} satisfies Goal;
