// OAuth for remote MCP servers, end to end on real processes: a dev server, a worker process and an API process
// sharing one encrypted token store, a real authorization server (oauth2-mock-server) in front of an MCP server that
// checks its JWTs, and the scripted model. An owner connects through the API (the browser's part played by fetch
// following the redirects), through the CLI's loopback link too; a call uses that owner's token; another owner is
// told to connect; an expired token is refreshed in the worker; a tool needing more scope asks the owner to connect
// again, and then works; a revoked grant sends the owner back to "needs connecting". No token appears in any history payload, log line or trace.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { notesScript as script } from '../fixtures/oauth-notes';
import { main as cli } from '../../client/cli';
import { startOAuthServers, OAUTH_CLIENT_ID, type OAuthServers } from '../../testkit/oauth-servers';
import { startProcess, type StartedProcess } from '../../testkit/process';
import { startTemporal } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { scriptedWorkerSettings, startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { startReceiver } from '../helpers/otlp-receiver';

const ADA = 'ada-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const TOKEN_TTL_S = 2;

describe('MCP servers behind OAuth', () => {
  let env: TestWorkflowEnvironment;
  let servers: OAuthServers;
  let worker: WorkerProcess;
  let api: StartedProcess;
  let apiUrl: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let shared: Record<string, string>;
  const conversations: string[] = [];

  beforeAll(async () => {
    [env, servers, receiver] = await Promise.all([startTemporal(), startOAuthServers(TOKEN_TTL_S), startReceiver()]);
    const { dir, env: settings } = scriptedWorkerSettings('mcp-oauth', {
      address: env.address,
      taskQueue: `mcp-oauth-${process.pid}`,
      script,
      mcpServers: {
        notes: { url: servers.mcpUrl, auth: { type: 'oauth', clientId: OAUTH_CLIENT_ID }, requireApproval: 'never' },
      },
    });
    // What the API and the worker share: the registry, the data folder (the token store) and its key.
    shared = { ...settings, DATA_DIR: path.join(dir, 'data'), MCP_TOKEN_KEY: randomBytes(32).toString('base64') };
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    [worker, api] = await Promise.all([
      startWorkerProcess({ ...shared, ...otel, OTEL_SERVICE_NAME: 'oauth-worker', LOG_LEVEL: 'DEBUG' }),
      startProcess(process.execPath, ['--require', 'tsx/cjs', 'api/main.ts'], {
        cwd: path.join(__dirname, '..', '..'),
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          ...shared,
          ...otel,
          OTEL_SERVICE_NAME: 'oauth-api',
          API_PORT: '0',
          API_KEYS: `ada=${ADA},bob=${BOB}`,
          API_HOST: '127.0.0.1',
        },
        ready: /API (http:\/\/[\d.:]+)\/api/,
        what: 'the API process',
      }),
    ]);
    apiUrl = api.ready[1]!;
  }, 60_000);
  afterAll(async () => {
    await Promise.all([worker?.stop(), api?.end('SIGTERM'), servers?.stop(), receiver?.close()]);
    await env?.teardown();
  });

  const call = async (method: string, route: string, key: string, body?: unknown) => {
    const res = await fetch(`${apiUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const notesStatus = async (key: string) => {
    const { body } = await call('GET', '/api/endpoints', key);
    return (body.endpoints as { name: string; status: string }[]).find((e) => e.name === 'notes')?.status;
  };
  const ask = async (key: string, text: string) => {
    const started = await call('POST', '/api/conversations', key, { goalId: 'goal_general' });
    const id = started.body.conversationId as string;
    conversations.push(id);
    return (await call('POST', `/api/conversations/${id}/messages`, key, { text })).body.reply as string;
  };

  /** Connects the key's owner through the API; the browser's part: the authorization server consents at once and
   * redirects to the API's callback. Returns the authorization URL and the callback URL. */
  const connectThroughApi = async (key: string) => {
    const connecting = await call('GET', '/api/endpoints/notes/connect', key);
    expect(connecting.status).toBe(200);
    const authorizationUrl = new URL(connecting.body.authorizationUrl as string);
    const consent = await fetch(authorizationUrl, { redirect: 'manual' });
    const callback = consent.headers.get('location')!;
    const back = await fetch(callback);
    expect({ status: back.status, page: await back.text() }).toEqual({
      status: 200,
      page: expect.stringContaining('Connected notes'),
    });
    return { authorizationUrl, callback };
  };

  it('connects an owner through the API, calls with their token, and tells another owner to connect', async () => {
    expect(await notesStatus(ADA)).toBe('needs_connecting');

    const { authorizationUrl, callback } = await connectThroughApi(ADA);
    expect(authorizationUrl.origin).toBe(servers.issuer);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(servers.mcpUrl);
    expect(authorizationUrl.searchParams.get('scope')).toBe('notes');
    expect(callback).toMatch(new RegExp(`^${apiUrl}/api/oauth/callback\\?code=`));
    // The state is good once.
    expect((await fetch(callback)).status).toBe(400);

    expect(await notesStatus(ADA)).toBe('ok');
    expect(await notesStatus(BOB)).toBe('needs_connecting');
    expect(await ask(ADA, 'notes on tides')).toBe('Notes on tides, read for johndoe.');
    expect(await ask(BOB, 'notes on tides')).toBe(
      'No notes: The MCP server "notes" needs connecting: run `agent endpoints connect notes` or use Connect in the web chat, then ask again.',
    );
    expect((await servers.stats()).grants.authorization_code).toBe(1);
  });

  it('refreshes an expired token in the worker', async () => {
    const before = (await servers.stats()).grants.refresh_token ?? 0;
    const expired = Date.now() + (TOKEN_TTL_S + 1) * 1000;
    await waitUntil(async () => Date.now() > expired, 10_000);
    expect(await ask(ADA, 'notes on currents')).toBe('Notes on currents, read for johndoe.');
    expect((await servers.stats()).grants.refresh_token ?? 0).toBeGreaterThan(before);
  });

  it('asks the owner to connect again when a tool needs more than they allowed, then calls it', async () => {
    expect(await ask(ADA, 'write note buy rope')).toBe(
      'Not written: The MCP server "notes" needs connecting again to allow more (notes notes:write): run `agent endpoints connect notes` or use Connect in the web chat, then ask again.',
    );
    const { authorizationUrl } = await connectThroughApi(ADA);
    expect(authorizationUrl.searchParams.get('scope')).toBe('notes notes:write');
    expect(await ask(ADA, 'write note buy rope')).toBe('Noted "buy rope" for johndoe.');
    expect(await ask(ADA, 'notes on tides')).toBe('Notes on tides, read for johndoe.');
  });

  it('connects from the CLI: it prints the link and waits until the browser comes back', async () => {
    const error = new PassThrough();
    let err = '';
    error.on('data', (d: Buffer) => (err += d.toString()));
    let out = '';
    const output = new PassThrough().on('data', (d: Buffer) => (out += d.toString()));
    const cliEnv = { ...shared, TEMPORAL_ADDRESS: env.address };
    const running = cli(['endpoints', 'connect', 'notes', '--owner', 'grace'], {
      input: new PassThrough(),
      output,
      error,
      env: cliEnv,
    });
    await waitUntil(async () => /^http:\S+$/m.test(err), 10_000);
    const link = /^(http:\S+)$/m.exec(err)![1]!;
    expect(err).toContain('Open this link to connect notes (as grace)');
    expect((await fetch(link)).status).toBe(200); // the authorization server, then the CLI's loopback callback
    expect(await running).toBe(0);
    expect(out).toBe('connected notes for grace\n');

    const list = async (owner: string) => {
      let text = '';
      const o = new PassThrough().on('data', (d: Buffer) => (text += d.toString()));
      const args = ['endpoints', '--owner', owner];
      expect(await cli(args, { input: new PassThrough(), output: o, error: new PassThrough(), env: cliEnv })).toBe(0);
      return text;
    };
    expect(await list('grace')).toMatch(/^notes +ok +http +2 tools/m);
    expect(await list('carol')).toMatch(/^notes +needs connecting +http +2 tools/m);
  });

  it('sends an owner whose grant was revoked back to connecting', async () => {
    await servers.revoke();
    expect(await ask(ADA, 'notes on reefs')).toMatch(/^No notes: The MCP server "notes" needs connecting/);
    expect((await servers.stats()).refused).toBeGreaterThan(0);
    expect(await notesStatus(ADA)).toBe('needs_connecting');
  });

  it('keeps every token out of history payloads, logs and traces', async () => {
    const { issued } = await servers.stats();
    expect(issued.length).toBeGreaterThanOrEqual(4);
    const payloads: string[] = [];
    for (const id of conversations) {
      const history = JSON.stringify(await env.client.workflow.getHandle(id).fetchHistory());
      payloads.push(history);
      // Payloads are base64 in the exported history: decode every one.
      for (const m of history.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g))
        payloads.push(Buffer.from(m[1]!, 'base64').toString('utf8'));
    }
    expect(payloads.join('\n')).toContain('Notes on tides');
    // The tool calls were traced (tool.call spans for the notes server) before looking for tokens in the traces.
    const traced = () => receiver.spans.filter((x) => x.name === 'tool.call' && x.attributes['mcp.server'] === 'notes');
    await waitUntil(async () => traced().length >= 4, 15_000);
    const places = {
      history: payloads.join('\n'),
      logs: worker.output() + api.output(),
      traces: receiver.bodies.join('\n'),
    };
    expect(places.logs.length).toBeGreaterThan(0);
    for (const [where, text] of Object.entries(places)) {
      const leaked = issued.filter((token) => text.includes(token));
      expect({ where, leaked }).toEqual({ where, leaked: [] });
    }
  });
});
