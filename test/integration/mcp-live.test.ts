// The headline: a running worker and a live conversation gain an MCP endpoint by a registry edit and call its
// tool on the next turn, then lose it when the entry is disabled; no restart. Secrets never reach the history.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { runCli } from '../helpers/cli';
import { serveHttp } from '../../demo/fx';
import { catalogQuery, endChatSignal } from '../../core/messages';
import { FX_STDIO as fx, mcpScript as script } from '../fixtures/scripts';
import { decide, history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

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
    const notes = (await history(handle))
      .filter((m) => m.kind === 'note')
      .map((m) => (m.kind === 'note' ? m.text : ''));
    expect(notes.at(-1)).toMatch(
      /Tools changed since the last turn \(new: fx__get_rates, fx__convert, fx__book_trade\)/,
    );

    // The destructive tool asks first (requireApproval: destructive), the read-only ones did not.
    const proposal = await say(handle, 'trade 50 USD to GBP');
    expect(proposal.pendingToolCall?.call.tool).toBe('fx__book_trade');
    expect((await decide(handle, { approve: true })).reply).toMatch(/^Booked T-\d+\.$/);

    write({ fx: { ...fx, enabled: false } });
    const gone = await say(handle, 'convert 5 USD to JPY');
    expect(gone.reply).toMatch(/unknown tool .*fx__convert/);
    const catalog = await handle.query(catalogQuery);
    expect(catalog?.endpoints).toEqual([expect.objectContaining({ name: 'fx', status: 'disabled' })]);
    expect(
      (await history(handle)).some(
        (m) => m.kind === 'note' && /no longer available: fx__get_rates, fx__convert, fx__book_trade/.test(m.text),
      ),
    ).toBe(true);
    await handle.signal(endChatSignal);
  });

  it('shows a broken registry edit in the catalog query while the last good registry keeps serving', async () => {
    write({ fx });
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_general' });
    writeFileSync(registry, '{ "mcpServers": { "fx": { "command": 42 } } }');
    expect((await say(handle, 'convert 10 EUR to USD')).reply).toBe('10 EUR is 10.87 USD.');
    expect((await handle.query(catalogQuery))?.registryError).toMatch(
      /server "fx": command: .*string.*still serving the last valid registry/,
    );
    await handle.signal(endChatSignal);
  });

  it("shows endpoints and a goal's tools through the CLI, as the worker sees them", async () => {
    write({ fx, down: { command: '/nonexistent/server', categories: ['finance'] } });
    const cliEnv = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: worker.worker.options.taskQueue };
    const run = (args: string[]) => runCli(args, cliEnv);
    const endpoints = await run(['endpoints']);
    expect(endpoints.code).toBe(0);
    expect(endpoints.out).toMatch(/^down\s+unavailable\s+stdio\s+0 tools\s+\[finance\]\s+error: cannot connect/m);
    expect(endpoints.out).toMatch(/^fx\s+ok\s+stdio\s+3 tools\s+\[finance\]$/m);
    const json = JSON.parse((await run(['endpoints', '--json'])).out);
    expect(json.endpoints.map((e: { name: string }) => e.name)).toEqual(['down', 'fx']);

    const tools = await run(['tools', '--goal', 'goal_currency_desk']);
    expect(tools.out).toMatch(/^fx__book_trade\s+mcp fx\/book_trade\s+approval: always/m);
    expect(tools.out).toMatch(/^CompleteGoal\s+builtin/m);
    expect(tools.out).toContain('unavailable endpoints (their tools are missing above): down');
    expect(await run(['tools', '--goal', 'goal_nope'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^error: Unknown goal "goal_nope"\. Known goals: /),
    });
  });

  it('writes the live catalog as a document (agent tools --markdown): every agent, tool, argument and endpoint', async () => {
    const run = (args: string[]) =>
      runCli(args, { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: worker.worker.options.taskQueue });
    write({ fx, down: { command: '/nonexistent/server', categories: ['finance'] } });
    const doc = (await run(['tools', '--markdown'])).out;
    const agents = JSON.parse((await run(['agents', '--json'])).out) as { goalId: string; agentName: string }[];
    for (const a of agents) expect(doc).toContain(`### ${a.agentName} (\`${a.goalId}\`)`);
    expect(doc).toContain(
      '- tools: `CompleteGoal`, `Remember`, `Forget`, `fx__get_rates`, `fx__convert`, `fx__book_trade`',
    );
    // A tool: its source, approval policy, who uses it, and its arguments from the schema.
    const convert = doc.slice(doc.indexOf('### `fx__convert`'), doc.indexOf('### `fx__get_rates`'));
    expect(convert).toContain('- source: MCP server `fx`, tool `convert`');
    expect(convert).toMatch(/- used by: .*`goal_currency_desk`/);
    expect(convert).toMatch(/\| `amount` \| number \| yes \|/);
    expect(doc).toMatch(/### `BookPTO`[\s\S]*?- source: native\n- approval: default \(asks when SHOW_CONFIRM is on\)/);
    expect(doc).toContain('| `fx` | ok | stdio | 3 | finance |  |');
    expect(doc).toMatch(/\| `down` \| unavailable \| stdio \| 0 \| finance \| cannot connect/);

    // Generated, not written: the registry's next state is the document's.
    write({ fx: { ...fx, enabled: false } });
    const after = (await run(['tools', '--markdown'])).out;
    expect(after).not.toContain('### `fx__convert`');
    expect(after).toContain('| `fx` | disabled |');
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
    const decoded = [...exported.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)]
      .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
      .join('\n');
    expect(decoded).toContain('remote__get_rates');
    expect(exported + decoded).not.toContain(SECRET);
  });
});
