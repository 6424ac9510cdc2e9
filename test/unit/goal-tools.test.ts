// The travel, sports, trains, food and billing tools on their own: mock data answers, the train service's API
// (timetable, booking idempotency), and CreateInvoice's Stripe path against a local stand-in for the Stripe API.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockStore, ToolError, type ToolContext, type ToolServices } from '../../tools/define-tool';
import { invoices } from '../../tools/mock-data/billing';
import { loadNativeTools } from '../../tools/tool-registry';
import { parseMonth } from '../../tools/native/travel/find-events';
import { startTrainService, timetable, type TrainService } from '../../tools/services/train-service';

const tools = loadNativeTools();
// Offline: no Stripe (mock invoices), and a train service URL nothing here calls (the service is tested directly).
const OFFLINE: ToolServices = { trainServiceUrl: 'http://127.0.0.1:3802' };
const context = (services = OFFLINE): ToolContext => ({
  store: new MockStore(),
  now: () => new Date('2026-11-20T09:00:00Z'),
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
    const now = new Date('2026-11-20T00:00:00Z');
    expect(parseMonth('March', now)).toEqual({ year: 2027, month: 3 });
    expect(parseMonth('nov', now)).toEqual({ year: 2026, month: 11 });
    expect(parseMonth('12', now)).toEqual({ year: 2026, month: 12 });
    expect(parseMonth('2028-06', now)).toEqual({ year: 2028, month: 6 });
    expect(parseMonth('June 2027', now)).toEqual({ year: 2027, month: 6 });
    expect(() => parseMonth('someday', now)).toThrow(ToolError);
  });

  it('finds events by city or country, and suggests elsewhere when a city has none', async () => {
    const nz = await run('FindEvents', { city: 'New Zealand', month: 'September' });
    expect(nz.events.map((e: { name: string }) => e.name)).toEqual(['World of WearableArt']);
    expect(nz.events[0]).toMatchObject({ startDate: '2027-09-25', nearestAirport: 'WLG', ticketsFrom: '95 NZD' });
    const none = await run('FindEvents', { city: 'hobart', month: '2027-01' });
    expect(none.events).toEqual([]);
    expect(none.elsewhereThatMonth.map((e: { city: string }) => e.city)).toEqual(
      expect.arrayContaining(['Sydney', 'Melbourne', 'Christchurch']),
    );
  });

  it('offers flights deterministically, cheapest first, with round trips and per-passenger totals', async () => {
    const args = {
      origin: 'los angeles',
      destination: 'akl',
      date: '2027-02-20',
      returnDate: '2027-02-27',
      passengers: 3,
    };
    const a = await run('SearchFlights', args);
    expect(await run('SearchFlights', args)).toEqual(a);
    expect(a.origin).toEqual({ code: 'LAX', city: 'Los Angeles' });
    expect(a.flights.every((f: { price: number; total: number }) => f.total === f.price * 3)).toBe(true);
    expect(
      a.returnFlights.every(
        (f: { from: string; departs: string }) => f.from === 'AKL' && f.departs.startsWith('2027-02-27'),
      ),
    ).toBe(true);
    await expect(run('SearchFlights', { origin: 'SYD', destination: 'SYD', date: '2027-02-20' })).rejects.toThrow(
      /same airport/,
    );
    await expect(
      run('SearchFlights', { origin: 'SYD', destination: 'MEL', date: '2027-02-20', returnDate: '2027-02-01' }),
    ).rejects.toThrow(/before the departure/);
  });
});

describe('sports: the mock 2026/27 season', () => {
  it('has every club play every other home and away, and searches by team alias and month', async () => {
    const season = await run('SearchFixtures', { team: 'Spurs' });
    expect(season.team).toBe('Tottenham Hotspur');
    expect(season.count).toBe(38);
    expect(season.fixtures.filter((f: { home: string }) => f.home === 'Tottenham Hotspur')).toHaveLength(19);
    const may = await run('SearchFixtures', { month: '2027-05' });
    expect(may.fixtures.at(-1).date <= '2027-05-31').toBe(true);
    await expect(run('SearchFixtures', { team: 'Manchester' })).rejects.toThrow(/Manchester City or Manchester United/);
    await expect(run('SearchFixtures', {})).rejects.toThrow(/team, a month/);
  });
});

describe('the train service', () => {
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
    const day = timetable('London', 'Newcastle', '2027-02-06');
    expect(day[0]?.from.name).toBe("London King's Cross");
    expect(day.every((j) => j.operator === 'LNER' && j.arrives > j.departs)).toBe(true);
    expect(timetable('KGX', 'NCL', '2027-02-06')).toEqual(day);
  });

  it('books once per idempotency key, and refuses unknown journeys with a 4xx', async () => {
    const [journey] = timetable('EUS', 'MAN', '2027-02-06');
    const body = { journeyIds: [journey!.id], passenger: { email: 'ada@example.com' } };
    const first = await post(body, 'key-1');
    const again = await post(body, 'key-1');
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(await again.json()).toEqual(await first.json());
    expect(service.bookings).toHaveLength(1);
    const bad = await post({ journeyIds: ['EUS-MAN-20270206-0001'], passenger: { email: 'ada@example.com' } });
    expect(bad.status).toBe(404);
    expect(((await bad.json()) as { error: string }).error).toMatch(/No journey/);
    expect((await fetch(`${service.url}/journeys?from=London&to=Euston&date=2027-02-06`)).status).toBe(400);
  });

  it('is reached by SearchTrains at the URL the tool context carries, not one from the environment', async () => {
    const found = await run(
      'SearchTrains',
      { from: 'EUS', to: 'MAN', date: '2027-02-06' },
      context({ trainServiceUrl: `${service.url}/` }),
    );
    expect(found.outbound.map((j: { id: string }) => j.id)).toEqual(
      timetable('EUS', 'MAN', '2027-02-06')
        .slice(0, 5)
        .map((j) => j.id),
    );
    await expect(
      run(
        'SearchTrains',
        { from: 'EUS', to: 'MAN', date: '2027-02-06' },
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
      dueDate: '2026-12-04',
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
