// A small UK train service, standing in for another team's booking system: a JSON API on 127.0.0.1 with an
// offline, deterministic timetable and bookings kept in memory. The SearchTrains / BookTrains tools call it over
// HTTP from their own worker (task queue "train-tools").
//   npx tsx demo/train-service.ts [--port 3802]     (the tools find it through TRAIN_SERVICE_URL)
//
//   GET  /health
//   GET  /stations
//   GET  /journeys?from=&to=&date=YYYY-MM-DD[&arriveBy=HH:MM][&departAfter=HH:MM][&limit=N]
//   POST /bookings  {"journeyIds": [...], "passenger": {"email": "...", "name": "..."}}   (Idempotency-Key header honoured)
//   GET  /bookings, GET /bookings/<reference>
// Errors are {"error": "..."} with 400 (bad request), 404 (unknown station, journey or booking) or 409.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError, journeyById, searchJourneys, STATIONS, type Journey } from './train-timetable';

export { searchJourneys, timetable, type Journey, type Station } from './train-timetable';

export const DEFAULT_TRAIN_SERVICE_PORT = 3802;

export interface Booking {
  reference: string;
  status: 'confirmed';
  passenger: { email: string; name?: string };
  journeys: Journey[];
  total: number;
  currency: 'GBP';
  createdAt: string;
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
