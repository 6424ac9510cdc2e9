import { z } from 'zod';
import { defineTool } from '../../define-tool';
import { idempotencyKey } from '../../idempotency';
import { TRAIN_TOOLS_QUEUE } from './task-queue';
import { trainService } from './train-service-client';

interface Booking {
  reference: string;
  status: string;
  passenger: { email: string; name?: string };
  journeys: {
    id: string;
    from: { name: string };
    to: { name: string };
    date: string;
    departs: string;
    arrives: string;
    price: number;
  }[];
  total: number;
  currency: string;
}

export default defineTool({
  name: 'BookTrains',
  description:
    'Book train journeys by their ids from SearchTrains (e.g. an outbound and a return) for a passenger. Returns the ' +
    'booking reference, the journeys and the total price in GBP.',
  category: 'trains',
  // Buys tickets: follows SHOW_CONFIRM (asks the user first by default).
  taskQueue: TRAIN_TOOLS_QUEUE,
  input: z.object({
    journeyIds: z
      .array(z.string().min(1))
      .min(1)
      .max(4)
      .describe('Journey ids from SearchTrains, e.g. ["EUS-LIV-20270116-0807"]'),
    email: z.string().describe("The passenger's email address"),
    passengerName: z.string().optional().describe("The passenger's name"),
  }),
  async run({ journeyIds, email, passengerName }, ctx) {
    const booking = await trainService<Booking>(ctx.services.trainServiceUrl, '/bookings', {
      method: 'POST',
      // The same key on every retry of this activity: a retried booking returns the first one, never a second.
      headers: { 'idempotency-key': idempotencyKey('book-trains') },
      body: { journeyIds, passenger: { email, ...(passengerName ? { name: passengerName } : {}) } },
    });
    const legs = booking.journeys.map((j) => `${j.date} ${j.departs} ${j.from.name} → ${j.arrives} ${j.to.name}`);
    return { ...booking, summary: legs.join('; ') };
  },
});
