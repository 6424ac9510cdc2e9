import { z } from 'zod';
import { defineTool } from '../../define-tool';
import { dataset } from '../../mock-data';

export default defineTool({
  name: 'ListOrders',
  description: "List a customer's orders, newest first, by the customer's email.",
  category: 'ecommerce',
  approval: 'never',
  readOnly: true,
  input: z.object({ email: z.string().describe('Customer email address') }),
  run({ email }, ctx) {
    const orders = dataset(ctx.store, 'orders')
      .filter((o) => o.email === email.toLowerCase())
      .sort((a, b) => b.placedOn.localeCompare(a.placedOn))
      .map(({ id, status, placedOn }) => ({ id, status, placedOn }));
    return { email, orders };
  },
});
