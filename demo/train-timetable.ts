// The train service's offline timetable (demo/train-service.ts serves it): stations, and the day's journeys
// between two of them, deterministic so a journey id can be checked again at booking time. Bad input is an HttpError
// the service answers with its status.
import { createHash } from 'node:crypto';

export interface Station {
  code: string;
  name: string;
  city: string;
  lat: number;
  lon: number;
  /** For stations outside London: the London terminal of their main line, and who runs it. */
  londonTerminal?: string;
  operator?: string;
}

export interface Journey {
  id: string;
  from: { code: string; name: string };
  to: { code: string; name: string };
  date: string;
  departs: string;
  arrives: string;
  durationMinutes: number;
  changes: number;
  operator: string;
  price: number;
  currency: 'GBP';
}

export const STATIONS: Station[] = [
  { code: 'EUS', name: 'London Euston', city: 'London', lat: 51.528, lon: -0.134 },
  { code: 'KGX', name: "London King's Cross", city: 'London', lat: 51.532, lon: -0.124 },
  { code: 'STP', name: 'London St Pancras', city: 'London', lat: 51.531, lon: -0.126 },
  { code: 'VIC', name: 'London Victoria', city: 'London', lat: 51.495, lon: -0.144 },
  { code: 'WAT', name: 'London Waterloo', city: 'London', lat: 51.503, lon: -0.113 },
  { code: 'LST', name: 'London Liverpool Street', city: 'London', lat: 51.518, lon: -0.081 },
  {
    code: 'LIV',
    name: 'Liverpool Lime Street',
    city: 'Liverpool',
    lat: 53.408,
    lon: -2.978,
    londonTerminal: 'EUS',
    operator: 'Avanti West Coast',
  },
  {
    code: 'MAN',
    name: 'Manchester Piccadilly',
    city: 'Manchester',
    lat: 53.477,
    lon: -2.231,
    londonTerminal: 'EUS',
    operator: 'Avanti West Coast',
  },
  {
    code: 'BHM',
    name: 'Birmingham New Street',
    city: 'Birmingham',
    lat: 52.478,
    lon: -1.899,
    londonTerminal: 'EUS',
    operator: 'Avanti West Coast',
  },
  {
    code: 'WVH',
    name: 'Wolverhampton',
    city: 'Wolverhampton',
    lat: 52.588,
    lon: -2.12,
    londonTerminal: 'EUS',
    operator: 'Avanti West Coast',
  },
  {
    code: 'BYM',
    name: 'Burnley Manchester Road',
    city: 'Burnley',
    lat: 53.785,
    lon: -2.243,
    londonTerminal: 'EUS',
    operator: 'Avanti West Coast and Northern',
  },
  { code: 'LDS', name: 'Leeds', city: 'Leeds', lat: 53.795, lon: -1.548, londonTerminal: 'KGX', operator: 'LNER' },
  {
    code: 'NCL',
    name: 'Newcastle',
    city: 'Newcastle',
    lat: 54.968,
    lon: -1.617,
    londonTerminal: 'KGX',
    operator: 'LNER',
  },
  {
    code: 'SUN',
    name: 'Sunderland',
    city: 'Sunderland',
    lat: 54.905,
    lon: -1.382,
    londonTerminal: 'KGX',
    operator: 'Grand Central',
  },
  {
    code: 'NOT',
    name: 'Nottingham',
    city: 'Nottingham',
    lat: 52.947,
    lon: -1.146,
    londonTerminal: 'STP',
    operator: 'East Midlands Railway',
  },
  {
    code: 'BTN',
    name: 'Brighton',
    city: 'Brighton',
    lat: 50.829,
    lon: -0.141,
    londonTerminal: 'VIC',
    operator: 'Southern',
  },
  {
    code: 'BMH',
    name: 'Bournemouth',
    city: 'Bournemouth',
    lat: 50.727,
    lon: -1.864,
    londonTerminal: 'WAT',
    operator: 'South Western Railway',
  },
];

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A station by code, name or city; "London" means the terminal serving `other`. */
function station(text: string, other?: string): Station {
  const key = norm(text);
  if (key === 'london') {
    const far = other !== undefined && norm(other) !== 'london' ? tryStation(other) : undefined;
    return byCode(far?.londonTerminal ?? 'EUS');
  }
  const found = tryStation(text);
  if (!found)
    throw new HttpError(
      404,
      `Unknown station "${text}". Stations: ${STATIONS.map((s) => `${s.name} (${s.code})`).join(', ')}.`,
    );
  return found;
}

function tryStation(text: string): Station | undefined {
  const key = norm(text);
  return (
    STATIONS.find((s) => norm(s.code) === key || norm(s.name) === key) ??
    STATIONS.find((s) => norm(s.city) === key && s.city !== 'London') ??
    STATIONS.find((s) => norm(s.name) === `london${key}`)
  );
}

function byCode(code: string): Station {
  return STATIONS.find((s) => s.code === code)!;
}

/** The day's timetable between two stations: deterministic, so ids can be checked again at booking time. */
export function timetable(fromText: string, toText: string, date: string): Journey[] {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new HttpError(400, `date must be a valid YYYY-MM-DD, not "${date}"`);
  }
  const from = station(fromText, toText);
  const to = station(toText, fromText);
  if (from.city === 'London' && to.city === 'London')
    throw new HttpError(400, 'Both stations are in London: take the Underground.');
  if (from.code === to.code) throw new HttpError(400, 'The two stations are the same.');
  const far = from.city === 'London' ? to : to.city === 'London' ? from : undefined;
  const viaLondonMainLine = far !== undefined && (from.code === far.londonTerminal || to.code === far.londonTerminal);
  const operator = far ? far.operator! : 'CrossCountry';
  const km = distanceKm(from, to) * 1.25;
  const h0 = hash(`${from.code}|${to.code}|${date}`);
  const journeys: Journey[] = [];
  for (let n = 0, minutes = 6 * 60 + (h0 % 30); minutes <= 21 * 60; n++, minutes += viaLondonMainLine ? 60 : 90) {
    const h = hash(`${from.code}|${to.code}|${date}|${n}`);
    const changes = viaLondonMainLine ? (far!.code === 'BYM' ? 1 : 0) : far ? 1 : h % 3 === 0 ? 0 : 1;
    const duration = Math.round((km / (viaLondonMainLine ? 165 : 115)) * 60 + 8 + changes * 22 + (h % 12));
    if (minutes + duration >= 24 * 60) break; // no overnight trains
    const peak = minutes >= 6 * 60 + 30 && minutes <= 9 * 60 + 30;
    const price = Math.round((9 + km * 0.11) * (peak ? 1.45 : 1) * (0.85 + ((h >>> 8) % 40) / 100) * 10) / 10;
    const departs = hhmm(minutes);
    journeys.push({
      id: `${from.code}-${to.code}-${date.replace(/-/g, '')}-${departs.replace(':', '')}`,
      from: { code: from.code, name: from.name },
      to: { code: to.code, name: to.name },
      date,
      departs,
      arrives: hhmm(minutes + duration),
      durationMinutes: duration,
      changes,
      operator,
      price,
      currency: 'GBP',
    });
  }
  return journeys;
}

export function journeyById(id: string): Journey {
  const m = /^([A-Z]{3})-([A-Z]{3})-(\d{4})(\d{2})(\d{2})-\d{4}$/.exec(id.trim().toUpperCase());
  if (!m) throw new HttpError(400, `"${id}" is not a journey id (like EUS-LIV-20270116-0807).`);
  const journey = timetable(m[1]!, m[2]!, `${m[3]}-${m[4]}-${m[5]}`).find((j) => j.id === id.trim().toUpperCase());
  if (!journey) throw new HttpError(404, `No journey ${id}: search again for the times of that day.`);
  return journey;
}

export function searchJourneys(q: URLSearchParams) {
  const [from, to, date] = ['from', 'to', 'date'].map((k) => q.get(k) ?? '');
  if (!from || !to || !date) throw new HttpError(400, 'from, to and date are required');
  const all = timetable(from, to, date);
  const limit = Math.min(Math.max(Number(q.get('limit') ?? 5) || 5, 1), 20);
  const arriveBy = q.get('arriveBy');
  const departAfter = q.get('departAfter');
  for (const t of [arriveBy, departAfter])
    if (t && !/^\d{1,2}:\d{2}$/.test(t)) throw new HttpError(400, `"${t}" is not a time (HH:MM)`);
  const journeys = arriveBy
    ? all.filter((j) => j.arrives <= pad(arriveBy)).slice(-limit)
    : all.filter((j) => !departAfter || j.departs >= pad(departAfter)).slice(0, limit);
  return { from: all[0]!.from, to: all[0]!.to, date, journeys };
}

function distanceKm(a: Station, b: Station): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const x =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lon - a.lon) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(x));
}

function hhmm(minutes: number): string {
  const m = minutes % (24 * 60);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

function pad(time: string): string {
  return time.length === 4 ? `0${time}` : time;
}

function hash(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0);
}
