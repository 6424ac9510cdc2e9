// Demo MCP server "shop": a small pizzeria with a menu, customers and invoices, shaped like Stripe's MCP tools
// (products, prices, customers, invoice items, invoices) but offline. Written with the MCP SDK.
//   stdio:           tsx demo/shop.ts
//   Streamable HTTP: tsx demo/shop.ts --http [--port 3803]   (serves http://127.0.0.1:PORT/mcp)
// State lives in memory, or in the JSON file SHOP_DATA_FILE names (so a tab survives the server being restarted).
// Amounts are in cents, as in Stripe. An invoice item created without an invoice is pending on the customer's tab;
// create_invoice collects the customer's pending items. Logs go to stderr only: on stdio, stdout is the protocol.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runFromCommandLine, serveMcpOverHttp, type HttpMcpServer } from './serve';
import { z } from 'zod';

export interface Product {
  id: string;
  name: string;
  description: string;
  category: 'pizza' | 'sides' | 'desserts' | 'drinks';
  default_price: string;
  unit_amount: number;
}

export interface Customer {
  id: string;
  email: string;
  name?: string;
}

export interface InvoiceItem {
  id: string;
  customer: string;
  invoice: string | null;
  price: string;
  product_name: string;
  quantity: number;
  unit_amount: number;
  amount: number;
  currency: string;
}

export interface Invoice {
  id: string;
  customer: string;
  status: 'draft' | 'open';
  number: string | null;
  lines: string[];
  total: number;
  currency: string;
  days_until_due: number;
  due_date: string | null;
  hosted_invoice_url: string | null;
}

export interface ShopData {
  customers: Customer[];
  items: InvoiceItem[];
  invoices: Invoice[];
}

const CURRENCY = 'usd';

export const MENU: Product[] = [
  product('margherita', 'Margherita', 'Tomato, mozzarella and basil', 'pizza', 1250),
  product('pepperoni', 'Pepperoni', 'Tomato, mozzarella and spicy pepperoni', 'pizza', 1400),
  product('funghi', 'Funghi', 'Mozzarella, mushrooms, garlic and thyme', 'pizza', 1350),
  product('calzone', 'Calzone', 'Folded pizza with ham, ricotta and mozzarella', 'pizza', 1500),
  product('focaccia', 'Focaccia', 'Rosemary focaccia with sea salt', 'sides', 550),
  product('tiramisu', 'Tiramisu', 'Coffee, mascarpone and cocoa', 'desserts', 650),
  product('lemonade', 'Lemonade', 'Home-made, 500 ml', 'drinks', 350),
];

function product(
  slug: string,
  name: string,
  description: string,
  category: Product['category'],
  cents: number,
): Product {
  return { id: `prod_${slug}`, name, description, category, default_price: `price_${slug}`, unit_amount: cents };
}

/** The shop's records, in memory or in `file` (read at start, written after every change). */
export class ShopState {
  readonly data: ShopData = { customers: [], items: [], invoices: [] };

  constructor(private readonly file?: string) {
    if (file) {
      try {
        Object.assign(this.data, JSON.parse(readFileSync(file, 'utf8')) as ShopData);
      } catch {
        // No file yet: an empty shop.
      }
    }
  }

  save(): void {
    if (!this.file) return;
    mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.data, null, 1));
    renameSync(`${this.file}.tmp`, this.file);
  }

  nextId(prefix: string, list: unknown[]): string {
    return `${prefix}_${1001 + list.length}`;
  }
}

const money = (cents: number) => `${(cents / 100).toFixed(2)} ${CURRENCY.toUpperCase()}`;

function json(value: object) {
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

function priceOf(id: string): Product {
  const key = id.trim().toLowerCase();
  const found = MENU.find((p) => p.default_price === key || p.id === key || `price_${p.name.toLowerCase()}` === key);
  if (!found) throw new Error(`No such price: ${id}. Prices: ${MENU.map((p) => p.default_price).join(', ')}.`);
  return found;
}

export function createShopServer(state = new ShopState()): McpServer {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  const { data } = state;
  const customerOf = (id: string) => {
    const c = data.customers.find((x) => x.id === id.trim());
    if (!c) throw new Error(`No such customer: ${id}. Create one with create_customer.`);
    return c;
  };
  const invoiceView = (inv: Invoice) => ({
    ...inv,
    lines: inv.lines
      .map((id) => data.items.find((i) => i.id === id)!)
      .map((i) => ({
        id: i.id,
        description: `${i.quantity} × ${i.product_name}`,
        quantity: i.quantity,
        amount: i.amount,
      })),
    amount_display: money(inv.total),
  });

  server.registerTool(
    'list_products',
    {
      description: "List the shop's products (the menu): id, name, description, category and default price id.",
      inputSchema: { limit: z.number().int().min(1).max(100).optional().describe('At most this many (default all)') },
      annotations: { title: 'List products', readOnlyHint: true, openWorldHint: false },
    },
    async ({ limit }) => json({ products: MENU.slice(0, limit ?? MENU.length).map(({ unit_amount: _, ...p }) => p) }),
  );

  server.registerTool(
    'get_price',
    {
      description: 'Get a price by its id (e.g. price_margherita, or a product id): unit amount in cents and currency.',
      inputSchema: { price: z.string().min(1).describe('Price id, e.g. price_margherita') },
      annotations: { title: 'Get a price', readOnlyHint: true, openWorldHint: false },
    },
    async ({ price }) => {
      const p = priceOf(price);
      return json({
        id: p.default_price,
        product: p.id,
        product_name: p.name,
        unit_amount: p.unit_amount,
        currency: CURRENCY,
        amount_display: money(p.unit_amount),
      });
    },
  );

  server.registerTool(
    'create_customer',
    {
      description: 'Create a customer by email, or return the existing customer with that email.',
      inputSchema: {
        email: z
          .string()
          .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'an email address')
          .describe('Customer email'),
        name: z.string().optional().describe('Customer name'),
      },
      annotations: {
        title: 'Create a customer',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ email, name }) => {
      const key = email.trim().toLowerCase();
      const existing = data.customers.find((c) => c.email === key);
      if (existing) return json({ ...existing, created: false });
      const customer: Customer = { id: state.nextId('cus', data.customers), email: key, ...(name ? { name } : {}) };
      data.customers.push(customer);
      state.save();
      return json({ ...customer, created: true });
    },
  );

  server.registerTool(
    'create_invoice_item',
    {
      description:
        "Add a price (times a quantity) to a customer's bill. Without `invoice` the item is pending on the customer's " +
        'tab and the next create_invoice collects it; with `invoice` it goes on that draft invoice.',
      inputSchema: {
        customer: z.string().describe('Customer id, e.g. cus_1001'),
        price: z.string().describe('Price id, e.g. price_margherita'),
        quantity: z.number().int().min(1).max(50).optional().describe('How many (default 1)'),
        invoice: z.string().optional().describe('A draft invoice id to add the item to'),
      },
      annotations: {
        title: 'Create an invoice item',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ customer, price, quantity, invoice }) => {
      const c = customerOf(customer);
      const p = priceOf(price);
      const target = invoice ? data.invoices.find((i) => i.id === invoice.trim()) : undefined;
      if (invoice && !target) throw new Error(`No such invoice: ${invoice}.`);
      if (target && target.status !== 'draft')
        throw new Error(`Invoice ${target.id} is finalized; items can only go on a draft.`);
      if (target && target.customer !== c.id) throw new Error(`Invoice ${target.id} belongs to another customer.`);
      const qty = quantity ?? 1;
      const item: InvoiceItem = {
        id: state.nextId('ii', data.items),
        customer: c.id,
        invoice: target?.id ?? null,
        price: p.default_price,
        product_name: p.name,
        quantity: qty,
        unit_amount: p.unit_amount,
        amount: p.unit_amount * qty,
        currency: CURRENCY,
      };
      data.items.push(item);
      if (target) {
        target.lines.push(item.id);
        target.total += item.amount;
      }
      state.save();
      return json({ ...item, amount_display: money(item.amount) });
    },
  );

  server.registerTool(
    'create_invoice',
    {
      description: "Create a draft invoice for a customer; it collects every item pending on the customer's tab.",
      inputSchema: {
        customer: z.string().describe('Customer id, e.g. cus_1001'),
        days_until_due: z.number().int().min(1).max(90).optional().describe('Days to pay once finalized (default 7)'),
      },
      annotations: {
        title: 'Create an invoice',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ customer, days_until_due }) => {
      const c = customerOf(customer);
      const pending = data.items.filter((i) => i.customer === c.id && i.invoice === null);
      const invoice: Invoice = {
        id: state.nextId('in', data.invoices),
        customer: c.id,
        status: 'draft',
        number: null,
        lines: pending.map((i) => i.id),
        total: pending.reduce((sum, i) => sum + i.amount, 0),
        currency: CURRENCY,
        days_until_due: days_until_due ?? 7,
        due_date: null,
        hosted_invoice_url: null,
      };
      for (const item of pending) item.invoice = invoice.id;
      data.invoices.push(invoice);
      state.save();
      return json(invoiceView(invoice));
    },
  );

  server.registerTool(
    'finalize_invoice',
    {
      description:
        'Finalize a draft invoice: it gets a number, a due date and a payment link, and can no longer change.',
      inputSchema: { invoice: z.string().describe('Invoice id, e.g. in_1001') },
      // Cannot be undone; finalizing twice returns the same invoice.
      annotations: {
        title: 'Finalize an invoice',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    async ({ invoice }) => {
      const inv = data.invoices.find((i) => i.id === invoice.trim());
      if (!inv) throw new Error(`No such invoice: ${invoice}.`);
      if (inv.status === 'draft') {
        if (inv.lines.length === 0)
          throw new Error(`Invoice ${inv.id} has no items: add some with create_invoice_item first.`);
        inv.status = 'open';
        inv.number = `SLICE-${String(data.invoices.filter((i) => i.number).length + 1).padStart(4, '0')}`;
        inv.due_date = new Date(Date.now() + inv.days_until_due * 86_400_000).toISOString().slice(0, 10);
        inv.hosted_invoice_url = `https://shop.example.com/invoices/${inv.id}`;
        state.save();
      }
      return json(invoiceView(inv));
    },
  );
  return server;
}

/** Streamable HTTP, stateless: a fresh server per request over shared state. `token` requires `Authorization: Bearer`. */
export async function serveHttp(
  port: number,
  opts: { state?: ShopState; token?: string } = {},
): Promise<HttpMcpServer & { state: ShopState }> {
  const state = opts.state ?? new ShopState(process.env.SHOP_DATA_FILE);
  const served = await serveMcpOverHttp(() => createShopServer(state), port, opts.token ?? process.env.SHOP_TOKEN);
  return { ...served, state };
}

if (require.main === module) {
  runFromCommandLine(
    'shop',
    3803,
    (port) => serveHttp(port),
    () => createShopServer(new ShopState(process.env.SHOP_DATA_FILE)),
  );
}
