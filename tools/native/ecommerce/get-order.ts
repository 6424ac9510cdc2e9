import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { dataset } from '../../mock-data';

export default defineTool({
  name: 'GetOrder',
  description: 'Get the status, items and tracking number of an order by its id (e.g. ORD-1001).',
  category: 'ecommerce',
  approval: 'never',
  readOnly: true,
  input: z.object({ orderId: z.string().describe('Order id, e.g. ORD-1001') }),
  run({ orderId }, ctx) {
    const order = dataset(ctx.store, 'orders').find((o) => o.id === orderId.toUpperCase());
    if (!order) throw new ToolError(`No order ${orderId}.`);
    return order;
  },
});
