// goal_food_ordering end to end: the native AddToCart mixed with the MCP tools of the demo shop server
// (demo/shop.ts). The main test serves the shop over Streamable HTTP in this process, so its records can be
// checked after the conversation; the demo test uses the shipped registry entry (stdio) and the offline demo script,
// from the picker, as npm start does, and also opens the Stripe agent, whose endpoint ships disabled.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadScript } from '../../activities/llm/scripted-model';
import { serveHttp, ShopState, type ShopData } from '../../demo/shop';
import { carts } from '../../tools/mock-data/food';
import { catalogQuery, currentGoalQuery, endChatSignal, toolsQuery } from '../../core/messages';
import { foodScript } from '../fixtures/goal-scripts-food';
import { decide, history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const ROOT = path.join(__dirname, '..', '..');
const DEMO_SCRIPT = path.join(ROOT, 'config', 'scripted-model.json');
const GOAL = 'goal_food_ordering';

describe('goal_food_ordering: a native cart and the shop MCP server', () => {
  let env: TestWorkflowEnvironment;
  let shop: Awaited<ReturnType<typeof serveHttp>>;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let demo: Awaited<ReturnType<typeof startWorker>>;
  let shopFile: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'goals-food-'));
    shop = await serveHttp(0, { state: new ShopState(), token: '' }); // in memory, no auth, whatever the environment says
    const registry = path.join(dir, 'mcp_endpoints.json');
    writeFileSync(
      registry,
      JSON.stringify({
        mcpServers: { shop: { url: shop.url, categories: ['commerce'], requireApproval: 'destructive' } },
      }),
    );

    // The shipped entries, unchanged but for where the stdio shop keeps its records.
    const shipped = JSON.parse(readFileSync(path.join(ROOT, 'config', 'mcp_endpoints.json'), 'utf8')) as {
      mcpServers: Record<string, { env?: object }>;
    };
    shopFile = path.join(dir, 'shop.json');
    const demoRegistry = path.join(dir, 'demo_endpoints.json');
    const { shop: shippedShop, stripe: shippedStripe } = shipped.mcpServers;
    writeFileSync(
      demoRegistry,
      JSON.stringify({
        mcpServers: { shop: { ...shippedShop, env: { SHOP_DATA_FILE: shopFile } }, stripe: shippedStripe },
      }),
    );

    env = await startTemporal();
    worker = await startWorker(env, { script: foodScript, settings: testSettings({ MCP_ENDPOINTS_FILE: registry }) });
    demo = await startWorker(env, {
      script: loadScript(DEMO_SCRIPT),
      settings: testSettings({ AGENT_GOAL: 'goal_choose_agent', MCP_ENDPOINTS_FILE: demoRegistry }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await demo?.stop();
    await env?.teardown();
    await shop?.close();
  });

  it('shows the menu and a price, fills the cart and the tab, and invoices them at checkout after approval', async () => {
    const { handle, greeting } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: GOAL });
    expect(greeting?.reply).toBe('Slice & Dice here. Menu?');

    expect((await say(handle, 'menu')).reply).toBe(
      'Menu: Margherita, Pepperoni, Funghi, Calzone, Focaccia, Tiramisu, Lemonade.',
    );
    expect((await say(handle, 'price of tiramisu')).reply).toBe('Tiramisu: 6.50 USD.');

    // Non-destructive shop tools and the cart run without asking.
    const first = await say(handle, 'add 2 margherita for ada@example.com');
    expect(first.pendingToolCall).toBeNull();
    expect(first.reply).toBe('Cart: 2 × Margherita = 25.00 USD.');
    expect((await say(handle, 'add 1 tiramisu for ada@example.com')).reply).toBe(
      'Cart: 2 × Margherita, 1 × Tiramisu = 31.50 USD.',
    );
    expect((await say(handle, 'add 1 margherita for ada@example.com')).reply).toBe(
      'Cart: 3 × Margherita, 1 × Tiramisu = 44.00 USD.',
    );

    // Finalizing is destructive (annotations), so the registry's requireApproval: destructive asks first.
    const checkout = await say(handle, 'checkout for ada@example.com');
    expect(checkout.pendingToolCall?.call).toMatchObject({
      tool: 'shop__finalize_invoice',
      args: { invoice: 'in_1001' },
    });
    expect(shop.state.data.invoices[0]?.status).toBe('draft');
    expect((await decide(handle, { approve: true })).reply).toBe('Invoice SLICE-0001: 44.00 USD, open.');

    // Our cart (native, in the worker's store) and the shop's records (in the MCP server) agree.
    expect(carts(worker.store)['ada@example.com']).toEqual({
      email: 'ada@example.com',
      currency: 'usd',
      lines: [
        {
          priceId: 'price_margherita',
          product: 'Margherita',
          unitAmount: 1250,
          quantity: 3,
          invoiceItemIds: ['ii_1001', 'ii_1003'],
        },
        { priceId: 'price_tiramisu', product: 'Tiramisu', unitAmount: 650, quantity: 1, invoiceItemIds: ['ii_1002'] },
      ],
    });
    const data: ShopData = shop.state.data;
    expect(data.customers).toEqual([{ id: 'cus_1001', email: 'ada@example.com' }]);
    expect(data.items.map((i) => [i.id, i.price, i.quantity, i.amount, i.invoice])).toEqual([
      ['ii_1001', 'price_margherita', 2, 2500, 'in_1001'],
      ['ii_1002', 'price_tiramisu', 1, 650, 'in_1001'],
      ['ii_1003', 'price_margherita', 1, 1250, 'in_1001'],
    ]);
    expect(data.invoices).toEqual([
      expect.objectContaining({
        id: 'in_1001',
        customer: 'cus_1001',
        status: 'open',
        number: 'SLICE-0001',
        total: 4400,
        hosted_invoice_url: 'https://shop.example.com/invoices/in_1001',
      }),
    ]);

    const steps = toolOutcomes(await history(handle)).map((m) => [m.call.tool, m.outcome.status]);
    const add = [
      ['shop__create_customer', 'ok'],
      ['shop__create_invoice_item', 'ok'],
      ['AddToCart', 'ok'],
    ];
    expect(steps).toEqual([
      ['shop__list_products', 'ok'],
      ['shop__get_price', 'ok'],
      ...add,
      ...add,
      ...add,
      ['shop__create_customer', 'ok'],
      ['shop__create_invoice', 'ok'],
      ['shop__finalize_invoice', 'ok'],
    ]);
    // The goal sees its native tool and exactly the shop's tools.
    const tools = (await handle.query(toolsQuery)).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['AddToCart', 'shop__list_products', 'shop__finalize_invoice']));
    expect(tools.filter((t) => t.startsWith('shop__'))).toHaveLength(6);
    await handle.signal(endChatSignal);
  });

  it("hands the shop's errors to the LLM, and leaves the invoice a draft when finalizing is rejected", async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: GOAL });
    expect((await say(handle, 'add 1 hawaiian for grace@example.com')).reply).toMatch(
      /^The shop said: No such price: price_hawaiian\. Prices: price_margherita, /,
    );
    expect(carts(worker.store)['grace@example.com']).toBeUndefined();

    await say(handle, 'add 1 lemonade for grace@example.com');
    await say(handle, 'checkout for grace@example.com');
    expect((await decide(handle, { approve: false, reason: 'changed my mind' })).reply).toBe(
      'Left as a draft (changed my mind).',
    );
    const grace = shop.state.data.customers.find((c) => c.email === 'grace@example.com')!;
    expect(shop.state.data.invoices.filter((i) => i.customer === grace.id)).toEqual([
      expect.objectContaining({ status: 'draft', number: null, total: 350 }),
    ]);
    await handle.signal(endChatSignal);
  });

  it('offline demo: the picker routes "order food" to the goal, which orders through the shipped stdio shop', async () => {
    const { handle } = await startConversation(env.client, demo.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    const menu = await say(handle, "I'd like to order food, what's on the menu?");
    expect((await handle.query(currentGoalQuery))?.id).toBe(GOAL);
    expect(menu.reply).toBe(
      'On the menu at Slice & Dice: Margherita, Pepperoni, Funghi, Calzone, Focaccia, Tiramisu, Lemonade. Ask e.g. "how much is the margherita?", or say "add 2 margherita for you@example.com".',
    );
    expect((await say(handle, 'how much is the margherita?')).reply).toBe('A Margherita is 12.50 USD.');
    expect((await say(handle, 'add 2 margheritas for ada@example.com')).reply).toBe(
      'Added 2 × Margherita. Your cart: 2 × Margherita, total 25.00 USD. Add more, or say "checkout for ada@example.com".',
    );
    const checkout = await say(handle, 'checkout for ada@example.com');
    expect(checkout.reply).toBe('Invoice in_1001: 2 × Margherita, 25.00 USD. Finalizing it.');
    expect(checkout.pendingToolCall?.call.tool).toBe('shop__finalize_invoice');
    expect((await decide(handle, { approve: true })).reply).toMatch(
      /^Invoice SLICE-0001 for 25\.00 USD is open, due \d{4}-\d{2}-\d{2}: https:\/\/shop\.example\.com\/invoices\/in_1001\. Enjoy your meal!/,
    );
    // The stdio shop kept its records in SHOP_DATA_FILE, so a restarted server would still know the invoice.
    const saved = JSON.parse(readFileSync(shopFile, 'utf8')) as ShopData;
    expect(saved.invoices).toEqual([expect.objectContaining({ id: 'in_1001', status: 'open', total: 2500 })]);
    expect(carts(demo.store)['ada@example.com']?.lines).toEqual([
      expect.objectContaining({ priceId: 'price_margherita', quantity: 2, invoiceItemIds: ['ii_1001'] }),
    ]);
    await handle.signal(endChatSignal);
  });

  it('offline demo: the Stripe agent opens, and its endpoint ships disabled until a key is configured', async () => {
    const { handle } = await startConversation(env.client, demo.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    const hello = await say(handle, 'I need the stripe agent');
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_stripe');
    expect(hello.reply).toMatch(/^You're with the Stripe agent now\. .*STRIPE_SECRET_KEY/);
    expect((await handle.query(catalogQuery))?.endpoints).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'stripe', status: 'disabled', toolCount: 0 }),
        expect.objectContaining({ name: 'shop', status: 'ok' }),
      ]),
    );
    // It selects only the "stripe" server: no shop tools leak in while Stripe is off.
    expect((await handle.query(toolsQuery)).filter((t) => t.kind === 'mcp')).toEqual([]);
    await handle.signal(endChatSignal);
  });
});
