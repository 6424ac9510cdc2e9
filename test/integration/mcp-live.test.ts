// The headline: a running worker and a live conversation gain an MCP endpoint by a registry edit and call its
// tool on the next turn, then lose it when the entry is disabled; no restart. Secrets never reach the history.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { serveHttp } from '../../mcp/servers/fx';
import { catalogQuery, endChatSignal } from '../../workflows/messages';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { decide, history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../helpers/temporal';

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hello! I use whatever MCP tools are connected.' } },
    { user: 'convert (\\d+) (\\w{3}) to (\\w{3})', reply: { toolCalls: [{ tool: 'fx__convert', args: { amount: '{{1:number}}', from: '{{2}}', to: '{{3}}' } }] } },
    { user: 'rates for (\\w{3})', reply: { toolCalls: [{ tool: 'remote__get_rates', args: { base: '{{1}}' } }] } },
    { user: 'trade (\\d+) (\\w{3}) to (\\w{3})', reply: { toolCalls: [{ tool: 'fx__book_trade', args: { amount: '{{1:number}}', from: '{{2}}', to: '{{3}}' } }] } },
    { afterTool: 'fx__convert', outcome: 'ok', reply: { text: '{{result.amount}} {{result.from}} is {{result.converted}} {{result.to}}.' } },
    { afterTool: 'remote__get_rates', outcome: 'ok', reply: { text: '1 {{result.base}} buys {{result.rates.USD}} USD.' } },
    { afterTool: 'fx__book_trade', outcome: 'ok', reply: { text: 'Booked {{result.id}}.' } },
    { afterTool: 'fx__convert', reply: { text: 'Cannot convert: {{outcome.problems}}{{outcome.error}}' } },
    { afterTool: 'remote__get_rates', reply: { text: 'Cannot get rates: {{outcome.problems}}{{outcome.error}}' } },
  ],
};

const fx = { command: process.execPath, args: ['--require', 'tsx/cjs', 'mcp/servers/fx.ts'], categories: ['finance'], requireApproval: 'destructive' };
const SECRET = 'sk-live-very-secret-4242';

describe('MCP endpoints added to a running system', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let registry: string;
  let remote: Awaited<ReturnType<typeof serveHttp>>;
  const write = (servers: object) => writeFileSync(registry, JSON.stringify({ mcpServers: servers }, null, 2));

  beforeAll(async () => {
    registry = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-live-')), 'mcp_endpoints.json');
    write({});
    process.env.FX_LIVE_TOKEN = SECRET;
    remote = await serveHttp(0, SECRET);
    env = await startTemporal();
    worker = await startWorker(env, {
      script,
      settings: testSettings({ AGENT_GOAL: 'goal_general', VALIDATE_PROMPTS: 'false', MCP_ENDPOINTS_FILE: registry }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
    await remote?.close();
    delete process.env.FX_LIVE_TOKEN;
  });

  it('uses a server added mid-conversation on the next turn, and stops using it once disabled', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_general' });
    const before = await say(handle, 'convert 100 USD to EUR');
    expect(before.reply).toMatch(/Cannot convert: .*unknown tool .*fx__convert/);

    write({ fx });
    const after = await say(handle, 'convert 100 USD to EUR');
    expect(after.reply).toBe('100 USD is 92 EUR.');
    const notes = (await history(handle)).filter((m) => m.kind === 'note').map((m) => (m.kind === 'note' ? m.text : ''));
    expect(notes.at(-1)).toMatch(/Tools changed since the last turn \(new: fx__get_rates, fx__convert, fx__book_trade\)/);

    // The destructive tool asks first (requireApproval: destructive), the read-only ones did not.
    const proposal = await say(handle, 'trade 50 USD to GBP');
    expect(proposal.pendingToolCall?.call.tool).toBe('fx__book_trade');
    expect((await decide(handle, { approve: true })).reply).toMatch(/^Booked T-\d+\.$/);

    write({ fx: { ...fx, enabled: false } });
    const gone = await say(handle, 'convert 5 USD to JPY');
    expect(gone.reply).toMatch(/unknown tool .*fx__convert/);
    const catalog = await handle.query(catalogQuery);
    expect(catalog?.endpoints).toEqual([expect.objectContaining({ name: 'fx', status: 'disabled' })]);
    expect((await history(handle)).some((m) => m.kind === 'note' && /no longer available: fx__get_rates, fx__convert, fx__book_trade/.test(m.text))).toBe(true);
    await handle.signal(endChatSignal);
  });

  it('shows a broken registry edit in the catalog query while the last good registry keeps serving', async () => {
    write({ fx });
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_general' });
    writeFileSync(registry, '{ "mcpServers": { "fx": { "command": 42 } } }');
    expect((await say(handle, 'convert 10 EUR to USD')).reply).toBe('10 EUR is 10.87 USD.');
    expect((await handle.query(catalogQuery))?.registryError).toMatch(/server "fx": command: .*string.*still serving the last valid registry/);
    await handle.signal(endChatSignal);
  });

  it('resolves ${env:…} secrets in the worker only: the exported history never contains them', async () => {
    write({ remote: { url: remote.url, headers: { Authorization: 'Bearer ${env:FX_LIVE_TOKEN}' } } });
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_general' });
    // The call only succeeds if the worker sent the real token.
    // No requireApproval on this entry: SHOW_CONFIRM decides, and it is on.
    const proposal = await say(handle, 'rates for EUR');
    expect(proposal.pendingToolCall?.call.tool).toBe('remote__get_rates');
    expect((await decide(handle, { approve: true })).reply).toBe('1 EUR buys 1.086957 USD.');
    expect(toolOutcomes(await history(handle), 'remote__get_rates')[0]?.outcome.status).toBe('ok');
    await handle.signal(endChatSignal);
    await handle.result();
    // Payloads are base64 in the exported history: decode every one and search the lot.
    const exported = JSON.stringify(await handle.fetchHistory());
    const decoded = [...exported.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8')).join('\n');
    expect(decoded).toContain('remote__get_rates');
    expect(exported + decoded).not.toContain(SECRET);
  });
});
