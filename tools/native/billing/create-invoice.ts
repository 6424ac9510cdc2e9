import { z } from 'zod';
import { defineTool, ToolError, type ToolServices } from '../../define-tool';
import { idempotencyKey } from '../../idempotency';
import { invoices, type InvoiceLine, type MockInvoice } from '../../mock-data/billing';

const input = z.object({
  email: z
    .string()
    .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'an email address')
    .describe("The customer's email address"),
  customerName: z.string().optional().describe("The customer's name, when known"),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'an ISO 4217 code')
    .default('USD')
    .describe('ISO 4217 currency of the amounts, e.g. USD'),
  items: z
    .array(
      z.object({
        description: z.string().min(1).describe('What is charged, e.g. "Flight QF 94 SFO→MEL"'),
        amount: z.number().positive().describe('Unit price in the currency (not cents), e.g. 1234.5'),
        quantity: z.number().int().min(1).max(99).default(1),
      }),
    )
    .min(1)
    .max(20)
    .describe('The lines of the invoice'),
  daysUntilDue: z.number().int().min(1).max(90).default(14).describe('Days the customer has to pay'),
});

type Args = z.infer<typeof input>;

export default defineTool({
  name: 'CreateInvoice',
  description:
    'Create and send an invoice to a customer for one or more lines (description, unit price, quantity). Uses Stripe ' +
    'when STRIPE_API_KEY is configured, otherwise records a mock invoice. Returns its id, total, due date and link.',
  category: 'billing',
  // Sends a bill: follows SHOW_CONFIRM (asks the user first by default).
  input,
  async run(args, ctx) {
    const items: InvoiceLine[] = args.items.map((i) => ({ ...i, lineTotal: round2(i.amount * i.quantity) }));
    const currency = args.currency.toUpperCase();
    if (ctx.services.stripe) return stripeInvoice(ctx.services.stripe, { ...args, currency }, items);

    const all = invoices(ctx.store);
    const today = ctx.now();
    const id = `INV-${1001 + all.length}`;
    const invoice: MockInvoice = {
      id,
      email: args.email.toLowerCase(),
      ...(args.customerName ? { customerName: args.customerName } : {}),
      currency,
      items,
      total: round2(items.reduce((sum, i) => sum + i.lineTotal, 0)),
      status: 'open',
      createdOn: isoDay(today),
      dueDate: isoDay(new Date(today.getTime() + args.daysUntilDue * 86_400_000)),
      url: `https://invoices.example.com/${id}`,
    };
    all.push(invoice);
    return { source: 'mock', ...invoice };
  },
});

// ---- Stripe (only with STRIPE_API_KEY): customer by email, an invoice, its items, finalised ----------------------
// apiBase (STRIPE_API_BASE) may point elsewhere (stripe-mock, a test double); every POST carries an idempotency key
// that is the same on a Temporal retry, so a retried activity cannot bill twice.

const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

async function stripeInvoice(
  { apiKey, apiBase }: NonNullable<ToolServices['stripe']>,
  args: Args,
  items: InvoiceLine[],
) {
  const base = apiBase.replace(/\/+$/, '');
  const idem = idempotencyKey('invoice');
  const minor = (amount: number) => Math.round(amount * (ZERO_DECIMAL.has(args.currency) ? 1 : 100));
  const major = (amount: number) => amount / (ZERO_DECIMAL.has(args.currency) ? 1 : 100);

  async function stripe(
    path: string,
    params?: Record<string, string>,
    step?: string,
  ): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(`${base}/v1/${path}`, {
        method: params ? 'POST' : 'GET',
        headers: {
          Authorization: `Bearer ${apiKey}`,
          ...(params
            ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': `${idem}-${step}` }
            : {}),
        },
        body: params ? new URLSearchParams(params).toString() : undefined,
        signal: AbortSignal.timeout(20_000),
      });
    } catch (err) {
      throw new Error(`Stripe is not reachable: ${(err as Error).message}`); // retried by Temporal
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown> & { error?: { message?: string } };
    if (res.status >= 400 && res.status < 500 && res.status !== 429) {
      throw new ToolError(`Stripe refused the request (${res.status}): ${body.error?.message ?? res.statusText}`);
    }
    if (!res.ok) throw new Error(`Stripe answered ${res.status}`);
    return body;
  }

  const email = args.email.toLowerCase();
  const found = (await stripe(`customers?${new URLSearchParams({ email, limit: '1' })}`)) as {
    data?: { id: string }[];
  };
  const customer =
    found.data?.[0]?.id ??
    ((await stripe('customers', { email, ...(args.customerName ? { name: args.customerName } : {}) }, 'customer'))
      .id as string);
  const draft = await stripe(
    'invoices',
    {
      customer,
      currency: args.currency.toLowerCase(),
      collection_method: 'send_invoice',
      days_until_due: String(args.daysUntilDue),
      pending_invoice_items_behavior: 'exclude',
    },
    'invoice',
  );
  for (const [n, item] of items.entries()) {
    const description = item.quantity > 1 ? `${item.description} (× ${item.quantity})` : item.description;
    await stripe(
      'invoiceitems',
      {
        customer,
        invoice: String(draft.id),
        currency: args.currency.toLowerCase(),
        amount: String(minor(item.lineTotal)),
        description,
      },
      `item-${n}`,
    );
  }
  const invoice = await stripe(`invoices/${String(draft.id)}/finalize`, {}, 'finalize');
  return {
    source: 'stripe',
    id: invoice.id,
    number: invoice.number,
    email,
    currency: args.currency,
    items,
    total: major(Number(invoice.total)),
    status: invoice.status,
    dueDate: typeof invoice.due_date === 'number' ? isoDay(new Date(invoice.due_date * 1000)) : undefined,
    url: invoice.hosted_invoice_url,
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
