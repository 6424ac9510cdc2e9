import { createHash } from 'node:crypto';
import { z } from 'zod';
import { isoDate } from '../../schemas';
import { defineTool, ToolError } from '../../define-tool';
import { airports, findAirport, type Airport } from '../../mock-data/travel';

/** Who flies where: long-haul carriers by the non-Oceania end, Tasman and domestic ones otherwise. */
const CARRIERS: Record<string, { code: string; name: string; factor: number }[]> = {
  oceania: [
    { code: 'QF', name: 'Qantas', factor: 1.15 },
    { code: 'NZ', name: 'Air New Zealand', factor: 1.1 },
    { code: 'VA', name: 'Virgin Australia', factor: 1 },
    { code: 'JQ', name: 'Jetstar', factor: 0.75 },
  ],
  'United States': [
    { code: 'QF', name: 'Qantas', factor: 1.1 },
    { code: 'UA', name: 'United Airlines', factor: 1.05 },
    { code: 'NZ', name: 'Air New Zealand', factor: 1 },
    { code: 'DL', name: 'Delta Air Lines', factor: 1.08 },
  ],
  Canada: [
    { code: 'AC', name: 'Air Canada', factor: 1.05 },
    { code: 'NZ', name: 'Air New Zealand', factor: 1 },
    { code: 'QF', name: 'Qantas', factor: 1.1 },
  ],
  'United Kingdom': [
    { code: 'QF', name: 'Qantas', factor: 1.1 },
    { code: 'SQ', name: 'Singapore Airlines', factor: 1.05 },
    { code: 'EK', name: 'Emirates', factor: 1 },
  ],
  Singapore: [
    { code: 'SQ', name: 'Singapore Airlines', factor: 1.1 },
    { code: 'QF', name: 'Qantas', factor: 1.05 },
    { code: 'TR', name: 'Scoot', factor: 0.7 },
  ],
  Japan: [
    { code: 'JL', name: 'Japan Airlines', factor: 1.1 },
    { code: 'NH', name: 'ANA', factor: 1.1 },
    { code: 'QF', name: 'Qantas', factor: 1.05 },
    { code: 'JQ', name: 'Jetstar', factor: 0.7 },
  ],
};

export default defineTool({
  name: 'SearchFlights',
  description:
    'Search flights between two airports (IATA code such as SFO or MEL, or a city name) on a date, optionally with a ' +
    'return date. Returns offers sorted by price, in USD per passenger and in total.',
  category: 'travel',
  approval: 'never',
  readOnly: true,
  input: z.object({
    origin: z.string().min(2).describe('Departure airport: IATA code (e.g. SFO) or city'),
    destination: z.string().min(2).describe('Arrival airport: IATA code (e.g. MEL) or city'),
    date: isoDate.describe('Departure date, YYYY-MM-DD'),
    returnDate: isoDate.optional().describe('Return date, YYYY-MM-DD, for a round trip'),
    passengers: z.number().int().min(1).max(9).default(1).describe('Number of passengers (1-9)'),
  }),
  run({ origin, destination, date, returnDate, passengers }, ctx) {
    const from = findAirport(ctx.store, origin);
    const to = findAirport(ctx.store, destination);
    if (!from || !to) {
      const known = airports(ctx.store)
        .map((a) => `${a.code} (${a.city})`)
        .join(', ');
      throw new ToolError(`Unknown airport "${!from ? origin : destination}". Known airports: ${known}.`);
    }
    if (from.code === to.code) throw new ToolError('The origin and the destination are the same airport.');
    if (Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new ToolError(`${date} is not a valid date.`);
    if (returnDate && returnDate < date) throw new ToolError('The return date is before the departure date.');
    // A real flights API would go here, used only when its key is configured; this demo is offline (mock offers).
    const outbound = offers(from, to, date, passengers);
    return {
      source: 'mock',
      origin: { code: from.code, city: from.city },
      destination: { code: to.code, city: to.city },
      date,
      passengers,
      currency: 'USD',
      flights: outbound,
      ...(returnDate ? { returnDate, returnFlights: offers(to, from, returnDate, passengers) } : {}),
    };
  },
});

const OCEANIA = new Set(['Australia', 'New Zealand']);

function offers(from: Airport, to: Airport, date: string, passengers: number) {
  const km = distanceKm(from, to);
  const other = !OCEANIA.has(from.country) ? from.country : !OCEANIA.has(to.country) ? to.country : 'oceania';
  const carriers = CARRIERS[other] ?? CARRIERS.oceania!;
  const longHaul = km > 13_000;
  return carriers
    .map((carrier) => {
      const h = hash(`${carrier.code}|${from.code}|${to.code}|${date}`);
      const stops = longHaul ? 1 : 0;
      const minutes = Math.round((km / 820) * 60 + 35 + stops * 110 + (h % 40));
      const departMinutes = 6 * 60 + ((h >>> 8) % (16 * 12)) * 5; // 06:00 to 21:55 local
      const departsUtc = Date.parse(`${date}T00:00:00Z`) + (departMinutes - from.utcOffset * 60) * 60_000;
      const arrivesUtc = departsUtc + minutes * 60_000;
      const price = Math.round((60 + km * 0.075) * carrier.factor * (0.9 + ((h >>> 16) % 30) / 100));
      const flightNumber = `${carrier.code} ${100 + ((h >>> 4) % 800)}`;
      const departs = localTime(departsUtc, from.utcOffset);
      const arrives = localTime(arrivesUtc, to.utcOffset);
      return {
        id: `${flightNumber.replace(' ', '')}-${date}`,
        flightNumber,
        carrier: carrier.name,
        from: from.code,
        to: to.code,
        departs,
        arrives,
        durationMinutes: minutes,
        stops,
        price,
        total: price * passengers,
        label: `${flightNumber} (${carrier.name}) ${from.code} ${departs.slice(11)} → ${to.code} ${arrives.replace('T', ' ')}, ${stops ? `${stops} stop` : 'non-stop'}, ${price} USD`,
      };
    })
    .sort((a, b) => a.price - b.price || a.departs.localeCompare(b.departs));
}

function distanceKm(a: Airport, b: Airport): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const x = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(x));
}

/** Local wall-clock time at a fixed UTC offset, as YYYY-MM-DDTHH:MM. */
function localTime(utcMs: number, offsetHours: number): string {
  return new Date(utcMs + offsetHours * 3_600_000).toISOString().slice(0, 16);
}

function hash(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}
