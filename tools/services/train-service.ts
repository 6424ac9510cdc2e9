// A small UK train service, standing in for another team's booking system: a JSON API on 127.0.0.1 with an
// offline, deterministic timetable and bookings kept in memory. The SearchTrains / BookTrains tools call it over
// HTTP from their own worker (task queue "train-tools").
//   npx tsx tools/services/train-service.ts [--port 3802]     (the tools find it through TRAIN_SERVICE_URL)
//
//   GET  /health
//   GET  /stations
//   GET  /journeys?from=&to=&date=YYYY-MM-DD[&arriveBy=HH:MM][&departAfter=HH:MM][&limit=N]
//   POST /bookings  {"journeyIds": [...], "passenger": {"email": "...", "name": "..."}}   (Idempotency-Key header honoured)
//   GET  /bookings, GET /bookings/<reference>
// Errors are {"error": "..."} with 400 (bad request), 404 (unknown station, journey or booking) or 409.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEFAULT_TRAIN_SERVICE_PORT = 3802;

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

export interface Booking {
  reference: string;
  status: 'confirmed';
  passenger: { email: string; name?: string };
  journeys: Journey[];
  total: number;
  currency: 'GBP';
  createdAt: string;
}

const STATIONS: Station[] = [
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

class HttpError extends Error {
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

function journeyById(id: string): Journey {
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

export interface TrainService {
  url: string;
  bookings: Booking[];
  close(): Promise<void>;
}

/** `now`: the service's clock, for when a booking was made (the machine's unless a demo runs on another day). */
export async function startTrainService(
  opts: { port?: number; host?: string; now?: () => Date } = {},
): Promise<TrainService> {
  const now = opts.now ?? (() => new Date());
  const bookings: Booking[] = [];
  const byKey = new Map<string, Booking>();

  function book(body: unknown, key: string | undefined): { status: number; booking: Booking } {
    if (key && byKey.has(key)) return { status: 200, booking: byKey.get(key)! };
    const b = (body ?? {}) as { journeyIds?: unknown; passenger?: { email?: unknown; name?: unknown } };
    if (
      !Array.isArray(b.journeyIds) ||
      b.journeyIds.length === 0 ||
      b.journeyIds.length > 4 ||
      !b.journeyIds.every((j) => typeof j === 'string')
    ) {
      throw new HttpError(400, 'journeyIds must be a list of 1 to 4 journey ids');
    }
    const email = typeof b.passenger?.email === 'string' ? b.passenger.email.trim().toLowerCase() : '';
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new HttpError(400, 'passenger.email must be an email address');
    const journeys = (b.journeyIds as string[]).map(journeyById);
    if (new Set(journeys.map((j) => j.id)).size !== journeys.length)
      throw new HttpError(400, 'the same journey is listed twice');
    const booking: Booking = {
      reference: `TRN-${String(4001 + bookings.length)}`,
      status: 'confirmed',
      passenger: {
        email,
        ...(typeof b.passenger?.name === 'string' && b.passenger.name ? { name: b.passenger.name } : {}),
      },
      journeys,
      total: Math.round(journeys.reduce((sum, j) => sum + j.price, 0) * 100) / 100,
      currency: 'GBP',
      createdAt: now().toISOString(),
    };
    bookings.push(booking);
    if (key) byKey.set(key, booking);
    return { status: 201, booking };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    try {
      if (req.method === 'GET' && url.pathname === '/health') return send(200, { ok: true });
      if (req.method === 'GET' && url.pathname === '/stations')
        return send(200, { stations: STATIONS.map(({ code, name, city }) => ({ code, name, city })) });
      if (req.method === 'GET' && url.pathname === '/journeys') return send(200, searchJourneys(url.searchParams));
      if (req.method === 'GET' && url.pathname === '/bookings') return send(200, { bookings });
      const ref = /^\/bookings\/([\w-]+)$/.exec(url.pathname)?.[1];
      if (req.method === 'GET' && ref) {
        const booking = bookings.find((b) => b.reference === ref.toUpperCase());
        return booking ? send(200, booking) : send(404, { error: `No booking ${ref}.` });
      }
      if (req.method === 'POST' && url.pathname === '/bookings') {
        const { status, booking } = book(await readJson(req), header(req, 'idempotency-key'));
        return send(status, booking);
      }
      send(404, { error: `No route ${req.method} ${url.pathname}` });
    } catch (err) {
      if (err instanceof HttpError) send(err.status, { error: err.message });
      else send(500, { error: (err as Error).message });
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    bookings,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 65_536) throw new HttpError(400, 'request body too large');
  }
  try {
    return JSON.parse(text || '{}');
  } catch {
    throw new HttpError(400, 'the body must be JSON');
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
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

if (require.main === module) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--port');
  const port = i >= 0 ? Number(args[i + 1]) : Number(process.env.TRAIN_SERVICE_PORT ?? DEFAULT_TRAIN_SERVICE_PORT);
  // TRAIN_SERVICE_HOST: 0.0.0.0 in a container, where the tool worker reaches it over the container network.
  startTrainService({ port, host: process.env.TRAIN_SERVICE_HOST || undefined }).then(
    (s) => {
      console.log(`train service on ${s.url} (tools: TRAIN_SERVICE_URL=${s.url})`);
      const stop = () => void s.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    },
    (err: Error) => {
      console.error(`error: ${err.message}`);
      process.exit(1);
    },
  );
}
