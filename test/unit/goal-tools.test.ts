// The travel, sports, trains, food and billing tools on their own: mock data answers, the train service's API
// (timetable, booking idempotency), and CreateInvoice's Stripe path against a local stand-in for the Stripe API.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockStore, ToolError, type ToolContext, type ToolServices } from '../../tools/define-tool';
import { invoices } from '../../tools/mock-data/billing';
import { loadNativeTools } from '../../tools/tool-registry';
import { parseMonth } from '../../tools/native/travel/find-events';
import { startTrainService, timetable, type TrainService } from '../../demo/train-service';
import { addDays, isoDay, resolveMonth } from '../../core/days';
import { week } from '../../testkit/days';

const tools = loadNativeTools();
/** The tools' clock, and their demo data's: one instant for the whole file. */
const now = new Date();
const today = isoDay(now);
// Offline: no Stripe (mock invoices), and a train service URL nothing here calls (the service is tested directly).
const OFFLINE: ToolServices = { trainServiceUrl: 'http://127.0.0.1:3802' };
const context = (services = OFFLINE): ToolContext => ({
  store: new MockStore([], () => now),
  now: () => now,
  services,
});
// Tool results are plain JSON for the LLM; the tests read them loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function run(name: string, args: object, ctx = context()): Promise<any> {
  const tool = tools.get(name)!;
  return tool.run(tool.input.parse(args), ctx);
}

describe('travel tools', () => {
  it('reads months as names, numbers or YYYY-MM, defaulting to the next time the month comes round', () => {
    // Seen from 20 November this year: March is next year's, November this one, December still this year's.
    const year = now.getUTCFullYear();
    const november = new Date(Date.UTC(year, 10, 20));
    expect(parseMonth('March', november)).toEqual({ year: year + 1, month: 3 });
    expect(parseMonth('nov', november)).toEqual({ year, month: 11 });
    expect(parseMonth('12', november)).toEqual({ year, month: 12 });
    expect(parseMonth(`${year + 2}-06`, november)).toEqual({ year: year + 2, month: 6 });
    expect(parseMonth(`June ${year + 1}`, november)).toEqual({ year: year + 1, month: 6 });
    expect(() => parseMonth('someday', november)).toThrow(ToolError);
  });

  it('finds events by city or country, and suggests elsewhere when a city has none', async () => {
    const nz = await run('FindEvents', { city: 'New Zealand', month: 'September' });
    expect(nz.events.map((e: { name: string }) => e.name)).toEqual(['World of WearableArt']);
    // The next September by the tools' clock (this one while it lasts).
    const september = resolveMonth('September', today)!;
    expect(nz.events[0]).toMatchObject({ startDate: `${september}-25`, nearestAirport: 'WLG', ticketsFrom: '95 NZD' });
    const none = await run('FindEvents', { city: 'hobart', month: resolveMonth('January', today) });
    expect(none.events).toEqual([]);
    expect(none.elsewhereThatMonth.map((e: { city: string }) => e.city)).toEqual(
      expect.arrayContaining(['Sydney', 'Melbourne', 'Christchurch']),
    );
  });

  it('offers flights deterministically, cheapest first, with round trips and per-passenger totals', async () => {
    // A Saturday twelve weeks on, back a week later.
    const [out, back] = [week(12, 5, today), week(13, 5, today)];
    const args = { origin: 'los angeles', destination: 'akl', date: out, returnDate: back, passengers: 3 };
    const a = await run('SearchFlights', args);
    expect(await run('SearchFlights', args)).toEqual(a);
    expect(a.origin).toEqual({ code: 'LAX', city: 'Los Angeles' });
    expect(a.flights.every((f: { price: number; total: number }) => f.total === f.price * 3)).toBe(true);
    expect(
      a.returnFlights.every((f: { from: string; departs: string }) => f.from === 'AKL' && f.departs.startsWith(back)),
    ).toBe(true);
    await expect(run('SearchFlights', { origin: 'SYD', destination: 'SYD', date: out })).rejects.toThrow(
      /same airport/,
    );
    await expect(
      run('SearchFlights', { origin: 'SYD', destination: 'MEL', date: out, returnDate: week(10, 0, today) }),
    ).rejects.toThrow(/before the departure/);
  });
});

describe('sports: the mock season', () => {
  it('has every club play every other home and away, and searches by team alias and month', async () => {
    const season = await run('SearchFixtures', { team: 'Spurs' });
    expect(season.team).toBe('Tottenham Hotspur');
    expect(season.count).toBe(38);
    expect(season.fixtures.filter((f: { home: string }) => f.home === 'Tottenham Hotspur')).toHaveLength(19);
    // The season's last month: a search by that month finds games, all of them in it.
    const last = season.fixtures.at(-1).date.slice(0, 7);
    const may = await run('SearchFixtures', { month: last });
    expect(may.fixtures.length).toBeGreaterThan(0);
    expect(may.fixtures.at(-1).date <= `${last}-31`).toBe(true);
    expect(may.fixtures.every((f: { date: string }) => f.date.startsWith(last))).toBe(true);
    await expect(run('SearchFixtures', { team: 'Manchester' })).rejects.toThrow(/Manchester City or Manchester United/);
    await expect(run('SearchFixtures', {})).rejects.toThrow(/team, a month/);
  });
});

describe('the train service', () => {
  /** A Saturday ten weeks on, and its timetable's ids' form of it. */
  const saturday = week(10, 5, today);
  const compact = saturday.replace(/-/g, '');
  let service: TrainService;
  beforeAll(async () => {
    service = await startTrainService();
  });
  afterAll(() => service.close());
  const post = (body: object, key?: string) =>
    fetch(`${service.url}/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
    });

  it('resolves "London" to the terminal of the line, and keeps a deterministic timetable', () => {
    const day = timetable('London', 'Newcastle', saturday);
    expect(day[0]?.from.name).toBe("London King's Cross");
    expect(day.every((j) => j.operator === 'LNER' && j.arrives > j.departs)).toBe(true);
    expect(timetable('KGX', 'NCL', saturday)).toEqual(day);
  });

  it('books once per idempotency key, and refuses unknown journeys with a 4xx', async () => {
    const [journey] = timetable('EUS', 'MAN', saturday);
    const body = { journeyIds: [journey!.id], passenger: { email: 'ada@example.com' } };
    const first = await post(body, 'key-1');
    const again = await post(body, 'key-1');
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(await again.json()).toEqual(await first.json());
    expect(service.bookings).toHaveLength(1);
    // No train leaves at 00:01.
    const bad = await post({ journeyIds: [`EUS-MAN-${compact}-0001`], passenger: { email: 'ada@example.com' } });
    expect(bad.status).toBe(404);
    expect(((await bad.json()) as { error: string }).error).toMatch(/No journey/);
    expect((await fetch(`${service.url}/journeys?from=London&to=Euston&date=${saturday}`)).status).toBe(400);
  });

  it('is reached by SearchTrains at the URL the tool context carries, not one from the environment', async () => {
    const found = await run(
      'SearchTrains',
      { from: 'EUS', to: 'MAN', date: saturday },
      context({ trainServiceUrl: `${service.url}/` }),
    );
    expect(found.outbound.map((j: { id: string }) => j.id)).toEqual(
      timetable('EUS', 'MAN', saturday)
        .slice(0, 5)
        .map((j) => j.id),
    );
    await expect(
      run(
        'SearchTrains',
        { from: 'EUS', to: 'MAN', date: saturday },
        context({ trainServiceUrl: 'http://127.0.0.1:9' }),
      ),
    ).rejects.toThrow(/train service at http:\/\/127\.0\.0\.1:9 is not reachable/);
  });
});

describe('AddToCart', () => {
  it('merges lines of the same price and refuses a second currency', async () => {
    const ctx = context();
    await run(
      'AddToCart',
      {
        email: 'Ada@Example.com',
        priceId: 'price_funghi',
        product: 'Funghi',
        unitAmount: 1350,
        quantity: 1,
        invoiceItemId: 'ii_1',
      },
      ctx,
    );
    const cart = await run(
      'AddToCart',
      {
        email: 'ada@example.com',
        priceId: 'price_funghi',
        product: 'Funghi',
        unitAmount: 1350,
        quantity: 2,
        invoiceItemId: 'ii_2',
      },
      ctx,
    );
    expect(cart).toMatchObject({
      itemCount: 3,
      total: 4050,
      totalDisplay: '40.50 USD',
      lines: [{ quantity: 3, invoiceItemIds: ['ii_1', 'ii_2'] }],
    });
    await expect(
      run(
        'AddToCart',
        { email: 'ada@example.com', priceId: 'p_eur', product: 'X', unitAmount: 100, currency: 'eur' },
        ctx,
      ),
    ).rejects.toThrow(/cart is in USD/);
  });
});

describe('CreateInvoice', () => {
  it('records a mock invoice when no Stripe key is configured', async () => {
    const ctx = context();
    const invoice = await run(
      'CreateInvoice',
      {
        email: 'ada@example.com',
        items: [
          { description: 'Flight', amount: 499.99, quantity: 2 },
          { description: 'Bag', amount: 40 },
        ],
      },
      ctx,
    );
    expect(invoice).toMatchObject({
      source: 'mock',
      id: 'INV-1001',
      total: 1039.98,
      currency: 'USD',
      dueDate: addDays(today, 14),
    });
    expect(invoices(ctx.store)).toHaveLength(1);
  });

  it('uses the Stripe API when the settings carry a Stripe key: customer, draft, items, finalize, each POST with an idempotency key', async () => {
    const calls: { method: string; url: string; auth?: string; key?: string; body: string }[] = [];
    const stripe = createServer(async (req: IncomingMessage, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      calls.push({
        method: req.method!,
        url: req.url!,
        auth: req.headers.authorization,
        key: req.headers['idempotency-key'] as string | undefined,
        body,
      });
      const reply = (status: number, value: object) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url!.startsWith('/v1/customers?')) return reply(200, { data: [] });
      if (req.url === '/v1/customers') return reply(200, { id: 'cus_9' });
      if (req.url === '/v1/invoices') return reply(200, { id: 'in_9' });
      if (req.url === '/v1/invoiceitems')
        return body.includes('amount=0')
          ? reply(400, { error: { message: 'Invalid amount' } })
          : reply(200, { id: 'ii_9' });
      if (req.url === '/v1/invoices/in_9/finalize')
        return reply(200, {
          id: 'in_9',
          number: 'A1-0001',
          status: 'open',
          total: 123450,
          due_date: 1_800_000_000,
          hosted_invoice_url: 'https://invoice.stripe.test/in_9',
        });
      reply(404, { error: { message: 'no route' } });
    });
    await new Promise<void>((resolve) => stripe.listen(0, '127.0.0.1', resolve));
    try {
      const apiBase = `http://127.0.0.1:${(stripe.address() as AddressInfo).port}`;
      const ctx = context({ ...OFFLINE, stripe: { apiKey: 'sk_test_123', apiBase } });
      const invoice = await run(
        'CreateInvoice',
        { email: 'Ada@example.com', currency: 'usd', items: [{ description: 'Trains', amount: 1234.5 }] },
        ctx,
      );
      expect(invoice).toMatchObject({
        source: 'stripe',
        id: 'in_9',
        number: 'A1-0001',
        total: 1234.5,
        currency: 'USD',
        status: 'open',
        url: 'https://invoice.stripe.test/in_9',
      });
      expect(invoices(ctx.store)).toHaveLength(0);
      expect(calls.map((c) => `${c.method} ${c.url.split('?')[0]}`)).toEqual([
        'GET /v1/customers',
        'POST /v1/customers',
        'POST /v1/invoices',
        'POST /v1/invoiceitems',
        'POST /v1/invoices/in_9/finalize',
      ]);
      expect(calls.every((c) => c.auth === 'Bearer sk_test_123')).toBe(true);
      expect(new URLSearchParams(calls[3]!.body).get('amount')).toBe('123450');
      const keys = calls.filter((c) => c.method === 'POST').map((c) => c.key);
      expect(new Set(keys).size).toBe(4);
      expect(keys.every((k) => k?.startsWith('invoice-'))).toBe(true);

      // A refusal is a domain answer for the LLM, not something to retry.
      await expect(
        run('CreateInvoice', { email: 'ada@example.com', items: [{ description: 'Nothing', amount: 0.001 }] }, ctx),
      ).rejects.toThrow(ToolError);
    } finally {
      await new Promise((resolve) => stripe.close(resolve));
    }
  });
});
