import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { dataset } from '../../mock-data';

export default defineTool({
  name: 'TrackPackage',
  description: 'Track a shipped package by its tracking number: carrier, status, last scan, delivery estimate.',
  category: 'ecommerce',
  approval: 'never',
  readOnly: true,
  input: z.object({ trackingNumber: z.string().describe('Carrier tracking number from the order') }),
  run({ trackingNumber }, ctx) {
    const shipment = dataset(ctx.store, 'shipments').find((s) => s.trackingNumber === trackingNumber.trim());
    if (!shipment) throw new ToolError(`The carrier has no package ${trackingNumber}.`);
    return shipment;
  },
});
