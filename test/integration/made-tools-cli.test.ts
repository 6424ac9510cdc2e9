// Made tools as their users see them, on a real dev server and worker with files put straight into its tools folder
// (TOOLS_DIR): `agent tools` lists them beside the MCP tools and in a goal's tools, `--made` shows every file with
// its state and provenance (and the code), `--stats` their usage (calls made through a conversation, read from its
// history), `disable|enable|remove` act on every version,
// `prune` only proposes, the HTTP API lists and manages them the same way, and the web chat's Made tools page shows
// them with their code folded away.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import type { MadeToolSummary, ToolManifest } from '../../core/made-tools';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { builtWebChat } from '../../testkit/web-build';
import { launchBrowser, openPage } from '../helpers/browser';
import { runCli } from '../helpers/cli';
import { say, startConversation } from '../helpers/conversation';
import type { ScriptInput } from '../../activities/llm/scripted-model';

/** When a tool file says it was made: `days` before the test ran, at a time with hours, minutes and seconds. */
const T0 = Date.now();
const madeAgo = (days: number) => new Date(T0 - days * 86_400_000 - 3_723_000).toISOString();
/** As the terminal shows a time: YYYY-MM-DD HH:MM. */
const shortTime = (iso: string) => iso.slice(0, 16).replace('T', ' ');

const wordCount: ToolManifest = {
  name: 'word_count',
  version: 1,
  isPure: true,
  description: 'How many words a text has.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  code: "if (input.text === 'boom') throw new Error('boom');\nreturn { words: input.text.split(/\\s+/).filter(Boolean).length };",
  examples: [
    { input: { text: '' }, output: { words: 0 } },
    { input: { text: 'one' }, output: { words: 1 } },
    { input: { text: 'one two  three' }, output: { words: 3 } },
  ],
  provenance: {
    createdBy: 'agent-made0001',
    callId: 'call-1',
    createdAt: madeAgo(60),
    request: 'count the words of my essay',
    model: 'scripted:test',
  },
};

/** v1 answers in capitals, v2 adds an exclamation mark: two working versions, v2 the current one. */
const shout = (version: 1 | 2): ToolManifest => {
  const mark = version === 2 ? '!' : '';
  return {
    name: 'shout',
    version,
    isPure: true,
    description: 'The text in capitals, with an exclamation mark.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    code: `return input.text.toUpperCase() + '${mark}';`,
    examples: ['hi', 'a b', ''].map((text) => ({ input: { text }, output: text.toUpperCase() + mark })),
  };
};

/** Made long ago, never used: the one prune proposes on its making. */
const oldTool: ToolManifest = {
  ...wordCount,
  name: 'old_tool',
  description: 'The length of a text, in characters.',
  code: 'return input.text.length;',
  examples: [
    { input: { text: '' }, output: 0 },
    { input: { text: 'ab' }, output: 2 },
    { input: { text: 'abc' }, output: 3 },
  ],
  provenance: { ...wordCount.provenance!, callId: 'call-2', createdAt: madeAgo(400) },
};

/** Made long ago too, never called: prune proposes it as well. */
const staleTool: ToolManifest = {
  ...oldTool,
  name: 'stale_tool',
  provenance: { ...oldTool.provenance!, callId: 'call-3' },
};

/** Two examples only: the file is reported, never offered. */
const broken = { ...oldTool, name: 'broken_tool', examples: oldTool.examples.slice(0, 2), provenance: undefined };

/** The word counter's model: `count <text>` calls word_count; its answer (or its failure) is the reply. */
const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi.' } },
    { user: '^count (.+)$', reply: { toolCalls: [{ tool: 'word_count', args: { text: '{{1}}' } }] } },
    { afterTool: 'word_count', outcome: 'ok', reply: { text: '{{result.words}} words.' } },
    { afterTool: 'word_count', outcome: 'tool_error', reply: { text: 'That failed.' } },
  ],
};

const GOAL = {
  id: 'goal_made_words',
  category: 'general',
  agentName: 'Word counter',
  agentFriendlyDescription: 'Counts words.',
  description: 'Count the words of what the user gives with word_count.',
  starterPrompt: 'Greet the user.',
  tools: ['word_count'],
};

describe('made tools in the CLI and the HTTP API', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let open: RunningApi;
  let keyed: RunningApi;
  let cliEnv: NodeJS.ProcessEnv;
  const toolsDir = mkdtempSync(path.join(tmpdir(), 'made-tools-cli-'));
  const goalsDir = mkdtempSync(path.join(tmpdir(), 'made-tools-goals-'));
  const put = (m: object, file: string) => writeFileSync(path.join(toolsDir, file), JSON.stringify(m, null, 2));

  let built: Promise<string>;
  let web: Promise<RunningApi> | undefined;

  beforeAll(async () => {
    built = builtWebChat();
    put(wordCount, 'word_count.v1.json');
    put(shout(1), 'shout.v1.json');
    put(shout(2), 'shout.v2.json');
    put(oldTool, 'old_tool.v1.json');
    put(staleTool, 'stale_tool.v1.json');
    put(broken, 'broken_tool.v1.json');
    writeFileSync(path.join(goalsDir, `${GOAL.id}.json`), JSON.stringify(GOAL));

    env = await startTemporal();
    bus = createStreamBus();
    const settings = testSettings({ TOOLS_DIR: toolsDir, GOALS_DIR: goalsDir, VALIDATE_PROMPTS: 'false' });
    worker = await startWorker(env, { settings, streamBus: bus, script });
    cliEnv = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: settings.taskQueue, PATH: process.env.PATH };
    const base = { agents: new AgentClient(env.client, settings.taskQueue), bus, defaultGoal: 'goal_hr_pto' };
    const api = { port: 0, host: '127.0.0.1', bodyLimitBytes: 64 * 1024, corsOrigins: [] };
    open = await startApi({ ...base, settings: { ...api, keys: null } });
    // The web chat's API starts once the chat is built (it serves the page only if there is one).
    web = built.then((webRoot) => startApi({ ...base, webRoot, settings: { ...api, keys: null } }));
    web.catch(() => undefined); // a failed build is the web test's failure, said when it awaits this
    keyed = await startApi({
      ...base,
      settings: { ...api, keys: new ApiKeys([`alice=${'a'.repeat(20)}`], [`ops=${'o'.repeat(20)}`]) },
    });
  });
  afterAll(async () => {
    await open?.close();
    await keyed?.close();
    await (await web?.catch(() => undefined))?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
  });

  const agent = (...args: string[]) => runCli(args, cliEnv);
  const json = async (...args: string[]) => {
    const run = await agent(...args, '--json');
    expect(run).toMatchObject({ code: 0, err: '' });
    return JSON.parse(run.out);
  };
  const call = async (method: string, route: string, api = open, key?: string) => {
    const res = await fetch(`${api.url}${route}`, {
      method,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
    return { status: res.status, body: JSON.parse(await res.text()) };
  };

  it('lists the made tools on offer beside the MCP tools, marked with their version, and names the rest', async () => {
    const { code, out } = await agent('tools');
    expect(code).toBe(0);
    expect(out).toMatch(/^word_count +\[made v1\] +approval: never +How many words a text has\.$/m);
    expect(out).toMatch(/^shout +\[made v2\] +approval: never /m);
    expect(out).not.toMatch(/\[made v1\].*capitals/);
    expect(out).toContain('made tools not offered: broken_tool v1 (broken) (agent tools --made says why)');
    const listed = await json('tools');
    expect(listed.made.map((t: MadeToolSummary) => `${t.name} v${t.version}`)).toEqual([
      'broken_tool v1',
      'old_tool v1',
      'shout v2',
      'shout v1',
      'stale_tool v1',
      'word_count v1',
    ]);
  });

  it("marks a made tool in a goal's tools the same way", async () => {
    const { code, out } = await agent('tools', '--goal', GOAL.id);
    expect(code).toBe(0);
    expect(out).toMatch(/^word_count +\[made v1\] +approval: never /m);
    const { tools } = await json('tools', '--goal', GOAL.id);
    expect(tools).toContainEqual(expect.objectContaining({ name: 'word_count', kind: 'made', made: { version: 1 } }));
  });

  it('shows every file with --made: state, problems, provenance; the code with --code', async () => {
    const { out } = await agent('tools', '--made');
    expect(out).toContain('word_count v1  current  How many words a text has.');
    expect(out).toContain(
      `  made by agent-made0001 at ${shortTime(wordCount.provenance!.createdAt)} (model scripted:test): "count the words of my essay"`,
    );
    expect(out).toContain('shout v1  older  The text in capitals');
    expect(out).toContain('shout v2  current');
    expect(out).toContain('  made by hand (no provenance in the file)');
    expect(out).toMatch(/^broken_tool v1 {2}broken\n {2}problem: examples: at least 3/m);
    expect(out).toContain(`  file: ${path.join(toolsDir, 'word_count.v1.json')}`);
    expect(out).not.toContain('code:');

    const withCode = (await agent('tools', '--made', '--code')).out;
    expect(withCode).toContain(
      "  code:\n    │ if (input.text === 'boom') throw new Error('boom');\n    │ return { words:",
    );

    const files: MadeToolSummary[] = await json('tools', '--made');
    expect(files.find((t) => t.name === 'word_count')).toMatchObject({
      current: true,
      disabled: false,
      code: wordCount.code,
      examples: wordCount.examples,
      provenance: wordCount.provenance,
    });
    expect(files.find((t) => t.name === 'broken_tool')).toMatchObject({
      current: false,
      problems: [expect.any(String)],
    });
  });

  it('counts calls, errors, times and last use with --stats, from the conversation that called it', async () => {
    const before = new Date().toISOString();
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: GOAL.id });
    expect((await say(handle, 'count a b c')).reply).toBe('3 words.');
    expect((await say(handle, 'count a')).reply).toBe('1 words.');
    expect((await say(handle, 'count boom')).reply).toBe('That failed.');

    const { tools } = await json('tools', '--stats');
    const words = tools.find((s: { name: string }) => s.name === 'word_count');
    expect(words).toMatchObject({ kind: 'made', version: 1, calls: 3, errors: 1, agents: [GOAL.id] });
    expect(words.p50Ms).toEqual(expect.any(Number));
    expect(words.p95Ms).toBeGreaterThanOrEqual(words.p50Ms);
    expect(words.lastUsed >= before).toBe(true);
    expect(tools.find((s: { name: string }) => s.name === 'shout')).toMatchObject({
      kind: 'made',
      version: 2,
      calls: 0,
    });

    const { out } = await agent('tools', '--stats');
    expect(out.split('\n')[0]).toMatch(/^tool +kind +endpoint +calls +errors +error % +p50 +p95 +last used$/);
    expect(out).toMatch(/^word_count +made v1 +3 +1 +33\.3% +\d+ ms +\d+ ms +\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    expect(out).toMatch(/^shout +made v2 +0 +0 +0% +— +— +never$/m);
    // With --made too, each file says how it is used.
    expect((await agent('tools', '--made', '--stats')).out).toMatch(/used: 3 call\(s\), 1 error\(s\), p50 \d+ ms/);
  });

  it('proposes the made tools unused for that long, with the command for each, and removes nothing', async () => {
    const filesBefore = readdirSync(toolsDir).sort();
    const { code, out } = await agent('tools', 'prune', '--unused-for', '30d');
    expect(code).toBe(0);
    const madeOld = shortTime(oldTool.provenance!.createdAt);
    expect(out.split('\n')).toEqual([
      '2 made tool(s) unused for 30d; nothing was removed. To remove one, run:',
      expect.stringMatching(new RegExp(`^ {2}agent tools remove old_tool +# v1, no call in 30d, made ${madeOld}$`)),
      expect.stringMatching(new RegExp(`^ {2}agent tools remove stale_tool +# v1, no call in 30d, made ${madeOld}$`)),
      'No call in 30d, made at a time no file records: broken_tool, shout',
      '',
    ]);
    const proposal = await json('tools', 'prune', '--unused-for', '30d');
    expect(proposal).toMatchObject({ unusedFor: '30d', unknownAge: ['broken_tool', 'shout'] });
    expect(proposal.unused).toEqual([
      expect.objectContaining({ name: 'old_tool', lastUsed: null, madeAt: oldTool.provenance!.createdAt }),
      expect.objectContaining({ name: 'stale_tool', command: 'agent tools remove stale_tool' }),
    ]);
    // word_count, made two months ago, was called by the conversation before: its last call counts, not its making.
    expect(out).not.toContain('word_count');
    expect((await agent('tools', 'prune', '--unused-for', '36500d')).out).toBe(
      'No made tool has been unused for 36500d.\nNo call in 36500d, made at a time no file records: broken_tool, shout\n',
    );
    expect(readdirSync(toolsDir).sort()).toEqual(filesBefore);

    // On confirmation (--yes) they are disabled, still not removed; enabling brings them back.
    const disabled = await json('tools', 'prune', '--unused-for', '30d', '--yes');
    expect(disabled.disabled).toEqual(['old_tool', 'stale_tool']);
    const made = (await json('tools', '--made')) as MadeToolSummary[];
    expect(made.filter((t) => t.disabled).map((t) => t.name)).toEqual(['old_tool', 'stale_tool']);
    for (const name of ['old_tool', 'stale_tool']) await json('tools', 'enable', name);
    expect(readdirSync(toolsDir).sort()).toEqual(filesBefore);
  });

  it('disables, enables and removes every version of a made tool', async () => {
    const disabled = await json('tools', 'disable', 'shout');
    expect(disabled).toMatchObject({ action: 'disable', name: 'shout' });
    expect(disabled.versions.map((v: MadeToolSummary) => [v.version, v.disabled])).toEqual([
      [2, true],
      [1, true],
    ]);
    expect(existsSync(path.join(toolsDir, 'shout.v2.json.disabled'))).toBe(true);
    const listed = (await agent('tools')).out;
    expect(listed).not.toMatch(/^shout /m);
    expect(listed).toContain(
      'made tools not offered: broken_tool v1 (broken), shout v2 (disabled), shout v1 (disabled)',
    );
    expect(await worker.made.run('shout', 2, { text: 'hi' })).toMatchObject({
      status: 'tool_error',
      error: 'shout is disabled (agent tools enable shout)',
    });

    expect((await agent('tools', 'enable', 'shout')).out).toBe('enabled shout (v2, v1)\n');
    expect((await agent('tools')).out).toMatch(/^shout +\[made v2\]/m);

    expect((await agent('tools', 'remove', 'broken_tool')).out).toBe('removed broken_tool (every version)\n');
    expect(existsSync(path.join(toolsDir, 'broken_tool.v1.json'))).toBe(false);
    expect((await agent('tools')).out).not.toContain('not offered');
  });

  it('fails with one line: an unknown name as the worker says it, a bad action or duration with the usage', async () => {
    const cases: [string[], RegExp][] = [
      [['tools', 'disable', 'nope'], /^error: No made tool named nope in .*made-tools-cli-\w+\.\n$/],
      [
        ['tools', 'frob', 'shout'],
        /^error: usage: agent tools \[--goal <id>\].* \| agent tools disable\|enable\|remove <name> \| /,
      ],
      [['tools', 'remove'], /^error: usage: agent tools /],
      [['tools', 'enable', 'shout', 'extra'], /^error: usage: agent tools /],
      [['tools', 'prune'], /^error: prune needs --unused-for <duration>\. usage: agent tools /],
      [
        ['tools', 'prune', '--unused-for', 'soon'],
        /^error: --unused-for must be a duration such as 90s, 15m, 24h or 7d, got "soon"\n$/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await agent(...args);
      expect({ args, code: run.code, err: run.err }).toEqual({ args, code: 1, err: expect.stringMatching(message) });
    }
    const asJson = await agent('tools', 'remove', 'nope', '--json');
    expect(JSON.parse(asJson.out)).toEqual({ error: expect.stringMatching(/^No made tool named nope in /) });
  });

  it('lists made tools over HTTP with code, examples, provenance and usage, and manages them', async () => {
    const { status, body } = await call('GET', '/api/made-tools');
    expect(status).toBe(200);
    const words = body.find((t: MadeToolSummary) => t.name === 'word_count');
    expect(words).toMatchObject({ version: 1, current: true, code: wordCount.code, provenance: wordCount.provenance });
    expect(words.examples).toHaveLength(3);
    expect(words.usage).toBeUndefined();
    const withUsage = (await call('GET', '/api/made-tools?usage=true')).body;
    expect(withUsage.find((t: MadeToolSummary) => t.name === 'word_count').usage).toMatchObject({
      calls: 3,
      errors: 1,
    });

    expect(await call('POST', '/api/made-tools/old_tool/disable')).toEqual({
      status: 200,
      body: {
        name: 'old_tool',
        action: 'disable',
        versions: [expect.objectContaining({ version: 1, disabled: true })],
      },
    });
    expect((await call('POST', '/api/made-tools/old_tool/enable')).body.versions[0].disabled).toBe(false);
    expect(await call('POST', '/api/made-tools/old_tool/remove')).toEqual({
      status: 200,
      body: { name: 'old_tool', action: 'remove', versions: [] },
    });
    expect(existsSync(path.join(toolsDir, 'old_tool.v1.json'))).toBe(false);

    expect(await call('POST', '/api/made-tools/nope/remove')).toEqual({
      status: 404,
      body: { error: expect.stringMatching(/^No made tool named nope in /) },
    });
    expect(await call('POST', '/api/made-tools/shout/frob')).toMatchObject({ status: 400, body: { field: 'action' } });
    expect(await call('POST', '/api/made-tools/no..pe/remove')).toMatchObject({ status: 400, body: { field: 'name' } });
    expect(await call('GET', '/api/made-tools?usage=maybe')).toMatchObject({ status: 400, body: { field: 'usage' } });
  });

  it('puts the routes in the OpenAPI document and behind the API keys (changes need an admin key)', async () => {
    const { body: doc } = await call('GET', '/api/openapi.json');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/made-tools', '/api/made-tools/{name}/{action}']),
    );
    expect(doc.components.schemas.MadeTool).toBeDefined();
    expect(await call('GET', '/api/made-tools', keyed)).toMatchObject({ status: 401 });
    expect(await call('POST', '/api/made-tools/shout/disable', keyed)).toMatchObject({ status: 401 });
    expect((await call('GET', '/api/made-tools', keyed, 'a'.repeat(20))).status).toBe(200);
    // Made tools are the worker's, shared by every user: only an admin key changes them.
    expect(await call('POST', '/api/made-tools/shout/remove', keyed, 'a'.repeat(20))).toMatchObject({
      status: 403,
      body: { error: expect.stringMatching(/admin key/) },
    });
    expect(existsSync(path.join(toolsDir, 'shout.v2.json'))).toBe(true);
    expect((await call('POST', '/api/made-tools/shout/enable', keyed, 'o'.repeat(20))).status).toBe(200);
  });

  it('shows every made tool on the web chat’s Made tools page, its code folded away', async () => {
    const chat = await web!;
    expect(chat.web).toBe(true);
    const browser = await launchBrowser();
    try {
      const { page, pageErrors, close } = await openPage(browser);
      await page.goto(`${chat.url}/`);
      await page.getByTestId('made-tools-link').click();
      await page.waitForURL(/#\/made-tools$/);
      const row = (name: string, version: number) =>
        page.locator(`[data-testid="made-tool-row"][data-tool="${name}"][data-version="${version}"]`);
      await row('word_count', 1).waitFor();
      expect(await row('word_count', 1).getAttribute('data-state')).toBe('current');
      expect(await row('shout', 1).getAttribute('data-state')).toBe('older');
      expect(await row('word_count', 1).textContent()).toMatch(
        /count the words of my essay.*3 call\(s\), 1 error\(s\)/,
      );
      const code = row('word_count', 1).getByTestId('made-tool-code');
      expect(await code.isVisible()).toBe(false);
      await row('word_count', 1).getByText('Code').click();
      expect(await code.isVisible()).toBe(true);
      expect(await code.textContent()).toBe(wordCount.code);
      expect(await page.title()).toBe('Made tools · Agent orchestrator');
      expect(pageErrors).toEqual([]);
      await close();
    } finally {
      await browser.close();
    }
  });
});
