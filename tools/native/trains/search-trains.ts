import { z } from 'zod';
import { isoDate } from '../../schemas';
import { defineTool } from '../../define-tool';
import type { Journey } from '../../../demo/train-service';
import { TRAIN_TOOLS_QUEUE } from './task-queue';
import { trainService } from './train-service-client';

const time = z.string().regex(/^\d{1,2}:\d{2}$/, 'a time as HH:MM');

export default defineTool({
  name: 'SearchTrains',
  description:
    'Search UK trains between two stations (a station name such as "Liverpool Lime Street", a code such as LIV, a ' +
    'city, or "London") on a date: outbound journeys arriving by a time, and optionally return journeys. Prices in GBP.',
  category: 'trains',
  approval: 'never',
  readOnly: true,
  taskQueue: TRAIN_TOOLS_QUEUE,
  input: z.object({
    from: z.string().min(2).describe('Departure station, code or city, e.g. London'),
    to: z.string().min(2).describe('Arrival station, code or city, e.g. Liverpool'),
    date: isoDate.describe('Travel date, YYYY-MM-DD'),
    arriveBy: time.optional().describe('Latest arrival, HH:MM (e.g. well before kickoff)'),
    returnDate: isoDate.optional().describe('Return date, YYYY-MM-DD, for return journeys'),
    returnAfter: time.optional().describe('Earliest return departure, HH:MM (e.g. after the final whistle)'),
  }),
  async run({ from, to, date, arriveBy, returnDate, returnAfter }, ctx) {
    const search = (a: string, b: string, d: string, extra: Record<string, string>) =>
      trainService<{ from: Journey['from']; to: Journey['to']; journeys: Journey[] }>(
        ctx.services.trainServiceUrl,
        `/journeys?${new URLSearchParams({ from: a, to: b, date: d, ...extra })}`,
      );
    const outbound = await search(from, to, date, arriveBy ? { arriveBy } : {});
    const back = returnDate
      ? await search(to, from, returnDate, returnAfter ? { departAfter: returnAfter } : {})
      : undefined;
    return {
      from: outbound.from,
      to: outbound.to,
      date,
      currency: 'GBP',
      outbound: outbound.journeys.map(withLabel),
      ...(back ? { returnDate, return: back.journeys.map(withLabel) } : {}),
    };
  },
});

function withLabel(j: Journey) {
  const changes = j.changes === 0 ? 'direct' : `${j.changes} change${j.changes > 1 ? 's' : ''}`;
  return {
    ...j,
    label: `${j.id}: ${j.departs} ${j.from.name} → ${j.arrives} ${j.to.name}, ${changes}, ${j.operator}, £${j.price.toFixed(2)}`,
  };
}
