import type { Goal } from '../../core/types';

export default {
  id: 'goal_food_ordering',
  category: 'food',
  agentName: 'Food ordering',
  agentFriendlyDescription:
    'Orders pizza from the Slice & Dice shop: menu, cart, and an invoice at checkout (the shop is an MCP server).',
  description:
    'Take a food order at the Slice & Dice pizzeria. The shop is the MCP server "shop"; the cart is your AddToCart tool. ' +
    '1. Show the menu with shop__list_products; give prices with shop__get_price. ' +
    '2. For each item the user orders (ask for their email first): shop__create_customer with the email (it returns ' +
    'the existing customer if there is one), shop__create_invoice_item for that customer with the price id and quantity ' +
    "(the item goes on the customer's tab), then AddToCart with the item's price, quantity, unit_amount and the " +
    'invoice item id. Tell them the cart total. ' +
    '3. At checkout: shop__create_customer, shop__create_invoice for the customer (it collects the tab), then ' +
    'shop__finalize_invoice, and give them the invoice number, total and link. ' +
    'Call CompleteGoal when the order is invoiced or the user needs nothing more.',
  starterPrompt:
    'Greet the user, say you can take their food order at the Slice & Dice pizzeria, and offer to show the menu.',
  exampleConversation: [
    "user: What's on the menu?",
    'agent: (calls shop__list_products {}) Margherita, Pepperoni, Funghi, Calzone, Focaccia, Tiramisu and Lemonade.',
    'user: Two margheritas please, for ada@example.com',
    'agent: (calls shop__create_customer {"email":"ada@example.com"}, then shop__create_invoice_item ' +
      '{"customer":"cus_1001","price":"price_margherita","quantity":2}, then AddToCart {"email":"ada@example.com",' +
      '"priceId":"price_margherita","product":"Margherita","unitAmount":1250,"currency":"usd","quantity":2,"invoiceItemId":"ii_1001"}) ' +
      'Added 2 × Margherita. Your cart: 25.00 USD.',
    "user: That's it, checkout",
    'agent: (calls shop__create_customer, shop__create_invoice {"customer":"cus_1001"}, shop__finalize_invoice {"invoice":"in_1001"}) ' +
      'Invoice SLICE-0001 for 25.00 USD: https://shop.example.com/invoices/in_1001',
  ].join('\n'),
  tools: ['AddToCart'],
  mcp: { servers: ['shop'] },
} satisfies Goal;
