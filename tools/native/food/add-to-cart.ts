import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { carts, money } from '../../mock-data/food';

export default defineTool({
  name: 'AddToCart',
  description:
    "Add an item from the shop's menu to the customer's cart (one cart per email), with the price the shop quoted. " +
    "Returns the whole cart and its total. Record the shop's invoice item id when the item is already on the customer's tab.",
  category: 'food',
  approval: 'never',
  input: z.object({
    email: z
      .string()
      .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'an email address')
      .describe("The customer's email address"),
    priceId: z.string().min(1).describe('The shop price id, e.g. price_margherita'),
    product: z.string().min(1).describe('The product name, e.g. Margherita'),
    unitAmount: z.number().int().nonnegative().describe('Price of one in cents, as the shop gives it (unit_amount)'),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .default('usd')
      .describe('Currency of the price, e.g. usd'),
    quantity: z.number().int().min(1).max(20).default(1),
    invoiceItemId: z.string().optional().describe('The shop invoice item created for this line (ii_…), if any'),
  }),
  run({ email, priceId, product, unitAmount, currency, quantity, invoiceItemId }, ctx) {
    const key = email.trim().toLowerCase();
    const all = carts(ctx.store);
    const cart = (all[key] ??= { email: key, currency: currency.toLowerCase(), lines: [] });
    if (cart.currency !== currency.toLowerCase()) {
      throw new ToolError(
        `The cart is in ${cart.currency.toUpperCase()}; ${product} is priced in ${currency.toUpperCase()}.`,
      );
    }
    let line = cart.lines.find((l) => l.priceId === priceId);
    if (line && line.unitAmount !== unitAmount)
      throw new ToolError(`${product} is already in the cart at another price; remove it first.`);
    if (!line) cart.lines.push((line = { priceId, product, unitAmount, quantity: 0, invoiceItemIds: [] }));
    line.quantity += quantity;
    if (invoiceItemId && !line.invoiceItemIds.includes(invoiceItemId)) line.invoiceItemIds.push(invoiceItemId);
    const total = cart.lines.reduce((sum, l) => sum + l.unitAmount * l.quantity, 0);
    return {
      email: key,
      added: { product, quantity },
      lines: cart.lines.map((l) => ({
        ...l,
        lineTotal: l.unitAmount * l.quantity,
        label: `${l.quantity} × ${l.product}`,
      })),
      itemCount: cart.lines.reduce((sum, l) => sum + l.quantity, 0),
      currency: cart.currency,
      total,
      totalDisplay: money(total, cart.currency),
    };
  },
});
