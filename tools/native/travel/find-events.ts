import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { isoDay, MONTHS, resolveMonth } from '../../../core/days';
import { yearlyEvents, type YearlyEvent } from '../../mock-data/travel';

export default defineTool({
  name: 'FindEvents',
  description:
    'Find festivals and events in Australia or New Zealand in a given month: by city (e.g. Melbourne, Auckland) or a ' +
    'whole country. Returns each event with its dates, venue and the airport to fly into.',
  category: 'travel',
  approval: 'never',
  readOnly: true,
  input: z.object({
    city: z
      .string()
      .min(1)
      .describe('A city in Australia or New Zealand (e.g. Sydney, Wellington), or "Australia" / "New Zealand"'),
    month: z
      .string()
      .min(1)
      .describe('The month: a name ("March"), a number ("3"), "next month", or a year and month (YYYY-MM)'),
  }),
  run({ city, month }, ctx) {
    const all = yearlyEvents(ctx.store);
    const where = city.trim().toLowerCase();
    const inPlace = all.filter((e) => e.city.toLowerCase() === where || e.country.toLowerCase() === where);
    if (inPlace.length === 0) {
      const cities = [...new Set(all.map((e) => e.city))].join(', ');
      throw new ToolError(
        `I only know events in Australia and New Zealand; "${city}" is not one of: ${cities} (or a whole country).`,
      );
    }
    const { year, month: m } = parseMonth(month, ctx.now());
    const label = `${year}-${String(m).padStart(2, '0')}`;
    const found = inPlace.filter((e) => during(e, m)).map((e) => occurrence(e, year));
    const result: Record<string, unknown> = {
      place: inPlace[0]!.city.toLowerCase() === where ? inPlace[0]!.city : inPlace[0]!.country,
      month: label,
      monthName: `${cap(MONTHS[m - 1]!)} ${year}`,
      events: found,
    };
    if (found.length === 0) {
      // Something to suggest instead: the same month elsewhere in Australia and New Zealand.
      const elsewhere = all.filter((e) => during(e, m)).map((e) => occurrence(e, year));
      result.elsewhereThatMonth = elsewhere;
      result.note = `nothing on there that month${elsewhere.length ? `; elsewhere: ${elsewhere.map((e) => e.label).join(', ')}` : ''}`;
    }
    return result;
  },
});

function during(e: YearlyEvent, month: number): boolean {
  return e.start.month <= month && month <= e.end.month;
}

function occurrence(e: YearlyEvent, year: number) {
  const date = (d: { month: number; day: number }) =>
    `${year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
  const startDate = date(e.start);
  const endDate = date(e.end);
  return {
    id: e.id,
    name: e.name,
    city: e.city,
    country: e.country,
    venue: e.venue,
    startDate,
    endDate,
    description: e.description,
    nearestAirport: e.airport,
    ticketsFrom: e.ticketFrom === 0 ? 'free' : `${e.ticketFrom} ${e.currency}`,
    label: `${e.name} (${e.city}, ${startDate} to ${endDate})`,
  };
}

/** "March", "mar", "3", "next month", a YYYY-MM, "March" and a year: a month, the next time it comes round unless a year is given. */
export function parseMonth(text: string, now: Date): { year: number; month: number } {
  const found = resolveMonth(text, isoDay(now));
  if (!found) throw new ToolError(`"${text}" is not a month: say e.g. "March", "3" or "next month".`);
  return { year: Number(found.slice(0, 4)), month: Number(found.slice(5, 7)) };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
