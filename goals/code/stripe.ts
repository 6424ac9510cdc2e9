import type { Goal } from '../../core/types';

export default {
  id: 'goal_stripe',
  category: 'commerce',
  agentName: 'Stripe agent',
  agentFriendlyDescription:
    "Works in your Stripe account with Stripe's own MCP server: customers, products, prices, invoices, payment links " +
    '(needs STRIPE_SECRET_KEY and the "stripe" entry enabled in config/mcp_endpoints.json).',
  description:
    'Help the user with their Stripe account using the tools of the MCP server "stripe": look up and create ' +
    'customers, products and prices, create and finalize invoices, create payment links. Confirm amounts and ' +
    'currencies with the user before creating anything that charges money. If you have no Stripe tools, say that ' +
    'the "stripe" endpoint is disabled or unavailable (it needs STRIPE_SECRET_KEY). Call CompleteGoal when done.',
  starterPrompt:
    'Greet the user, say you can work in their Stripe account (customers, products, invoices, payment links), and ask what they need.',
  exampleConversation: [
    'user: Create a customer for ada@example.com and send her an invoice for 50 USD.',
    'agent: (calls stripe__create_customer {"email":"ada@example.com"}) Created. What should the invoice line say?',
  ].join('\n'),
  tools: [],
  mcp: { servers: ['stripe'] },
} satisfies Goal;
