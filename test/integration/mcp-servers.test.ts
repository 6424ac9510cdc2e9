// Discovery and calls against real MCP server processes: our demo server over stdio and Streamable HTTP, the
// reference servers from npm, and a server that crashes, hangs, or answers garbage.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpDiscovery } from '../../endpoints/catalog';
import { callMcpTool } from '../../endpoints/mcp/call';
import { McpPool } from '../../endpoints/mcp/pool';
import { RegistryFile } from '../../endpoints/endpoint-registry';
import { serveHttp } from '../../demo/fx';
import { PROJECT_ROOT } from '../../worker/worker-settings';
import { waitUntil } from '../../testkit/wait-until';
import type { ToolSpec } from '../../core/types';

const TSX = ['--require', 'tsx/cjs'];
const fxStdio = {
  command: process.execPath,
  args: [...TSX, 'demo/fx.ts'],
  categories: ['finance'],
  requireApproval: 'destructive',
};
const chaos = (extra: object = {}) => ({
  command: process.execPath,
  args: [...TSX, 'test/fixtures/mcp/chaos-server.ts'],
  timeoutMs: 3000,
  ...extra,
});
const bin = (pkg: string) => path.join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');

describe('MCP discovery and calls against real servers', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-test-'));
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  function setup(servers: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env) {
    const file = path.join(dir, `registry-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ mcpServers: servers }));
    const pool = new McpPool({ baseDir: PROJECT_ROOT });
    const discovery: McpDiscovery = new McpDiscovery({
      registry: new RegistryFile(file),
      pool,
      env,
      discoveryTimeoutMs: 10_000,
    });
    cleanups.push(() => pool.closeAll());
    const call = (tool: ToolSpec, args: Record<string, unknown>) =>
      callMcpTool(discovery, pool, { name: tool.name, ref: tool.mcp!, args });
    const tool = async (name: string) => {
      const found = (await discovery.catalog()).tools.find((t) => t.name === name);
      if (!found) throw new Error(`no tool ${name}`);
      return found;
    };
    return { file, pool, discovery, call, tool };
  }

  it('discovers and calls our demo server over stdio, with approval from its annotations', async () => {
    const { discovery, call, tool } = setup({ fx: fxStdio });
    const catalog = await discovery.catalog();
    expect(catalog.endpoints).toEqual([
      expect.objectContaining({ name: 'fx', status: 'ok', toolCount: 3, transport: 'stdio', categories: ['finance'] }),
    ]);
    expect(catalog.tools.map((t) => [t.name, t.approval, `${t.mcp?.server}/${t.mcp?.tool}`])).toEqual([
      ['fx__get_rates', 'never', 'fx/get_rates'],
      ['fx__convert', 'never', 'fx/convert'],
      ['fx__book_trade', 'always', 'fx/book_trade'],
    ]);
    const convert = await tool('fx__convert');
    expect(await call(convert, { amount: 100, from: 'USD', to: 'EUR' })).toEqual({
      status: 'ok',
      result: { amount: 100, from: 'USD', to: 'EUR', converted: 92 },
    });
    // Checked against the tool's inputSchema before anything is sent.
    expect(await call(convert, { amount: 'lots', from: 'USD', to: 'EUR' })).toMatchObject({
      status: 'invalid_input',
      problems: [expect.stringMatching(/amount/)],
    });
    // The server's own "no" comes back as a tool error, not a failure.
    expect(await call(convert, { amount: 1, from: 'USD', to: 'XYZ' })).toMatchObject({
      status: 'tool_error',
      error: expect.stringMatching(/Unknown currency: XYZ/),
    });
    // Warm: the same catalog, no re-listing.
    expect((await discovery.catalog()).version).toBe(catalog.version);
  });

  it('talks Streamable HTTP with a bearer token from ${env:…}, and names a missing variable', async () => {
    const server = await serveHttp(0, 'tok-123456');
    cleanups.push(() => server.close());
    const entry = {
      url: server.url,
      headers: { Authorization: 'Bearer ${env:FX_TEST_TOKEN}' },
      categories: ['finance'],
    };
    const missing = setup({ fxhttp: entry }, {});
    expect((await missing.discovery.catalog()).endpoints[0]).toMatchObject({
      status: 'unavailable',
      error: expect.stringMatching(/needs the environment variable\(s\) FX_TEST_TOKEN/),
    });
    const wrong = setup({ fxhttp: entry }, { FX_TEST_TOKEN: 'wrong-token' });
    const wrongStatus = (await wrong.discovery.catalog()).endpoints[0]!;
    expect(wrongStatus.status).toBe('unavailable');
    expect(wrongStatus.error).not.toContain('wrong-token');

    const ok = setup({ fxhttp: entry }, { FX_TEST_TOKEN: 'tok-123456' });
    expect((await ok.discovery.catalog()).endpoints[0]).toMatchObject({
      status: 'ok',
      transport: 'http',
      toolCount: 3,
    });
    expect(await ok.call(await ok.tool('fxhttp__get_rates'), { base: 'EUR' })).toMatchObject({
      status: 'ok',
      result: { base: 'EUR' },
    });
  });

  it('works with the reference server-everything over stdio and Streamable HTTP', async () => {
    const stdio = setup({ everything: { command: process.execPath, args: [bin('server-everything')] } });
    const echo = await stdio.tool('everything__echo');
    expect(await stdio.call(echo, { message: 'hi there' })).toMatchObject({
      status: 'ok',
      result: expect.stringContaining('hi there'),
    });

    const port = await freePort();
    const child = spawn(process.execPath, [bin('server-everything'), 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    cleanups.push(() => stopProcess(child));
    await waitForOutput(child, /listening on port/i);
    const http = setup({ everything: { url: `http://127.0.0.1:${port}/mcp` } });
    const catalog = await http.discovery.catalog();
    expect(catalog.endpoints[0]).toMatchObject({ status: 'ok', transport: 'http' });
    expect(catalog.tools.length).toBeGreaterThan(3);
    expect(await http.call(await http.tool('everything__echo'), { message: 'over http' })).toMatchObject({
      status: 'ok',
      result: expect.stringContaining('over http'),
    });
  });

  it('falls back to legacy SSE when a remote entry has no type and Streamable HTTP is refused', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bin('server-everything'), 'sse'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    cleanups.push(() => stopProcess(child));
    await waitForOutput(child, /running on port/i);
    for (const entry of [
      { url: `http://127.0.0.1:${port}/sse` },
      { url: `http://127.0.0.1:${port}/sse`, type: 'sse' },
    ]) {
      const { discovery, call, tool } = setup({ legacy: entry });
      expect((await discovery.catalog()).endpoints[0]).toMatchObject({ status: 'ok' });
      expect(await call(await tool('legacy__echo'), { message: 'via sse' })).toMatchObject({
        status: 'ok',
        result: expect.stringContaining('via sse'),
      });
    }
  });

  it('works with the reference server-filesystem, honouring includeTools', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'mcp-fs-'));
    writeFileSync(path.join(root, 'notes.txt'), 'remember the milk');
    const { discovery, call, tool } = setup({
      files: {
        command: process.execPath,
        args: [bin('server-filesystem'), root],
        includeTools: ['read_*', 'list_*'],
        excludeTools: ['read_media_file'],
      },
    });
    const names = (await discovery.catalog()).tools.map((t) => t.name);
    expect(names).toContain('files__read_text_file');
    expect(names).not.toContain('files__write_file');
    expect(names).not.toContain('files__read_media_file');
    const read = await call(await tool('files__read_text_file'), { path: path.join(root, 'notes.txt') });
    expect(JSON.stringify(read)).toContain('remember the milk');
  });

  it('keeps serving healthy endpoints when others are missing, hung or speak garbage', async () => {
    const { discovery } = setup({
      fx: fxStdio,
      missing: { command: '/nonexistent/mcp-server' },
      hung: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeoutMs: 1500 },
      garbage: {
        command: process.execPath,
        args: ['-e', 'console.log("hello, I am not JSON-RPC"); setInterval(() => {}, 1000)'],
        timeoutMs: 1500,
      },
      off: { command: '/nonexistent', enabled: false },
    });
    const started = Date.now();
    const catalog = await discovery.catalog();
    const byName = Object.fromEntries(catalog.endpoints.map((e) => [e.name, e]));
    expect(byName.fx).toMatchObject({ status: 'ok', toolCount: 3 });
    expect(byName.missing).toMatchObject({
      status: 'unavailable',
      error: expect.stringMatching(/ENOENT|cannot connect/),
    });
    expect(byName.hung).toMatchObject({ status: 'unavailable', error: expect.stringMatching(/1500 ms/) });
    expect(byName.garbage).toMatchObject({ status: 'unavailable' });
    expect(byName.off).toMatchObject({ status: 'disabled' });
    expect(catalog.tools.every((t) => t.mcp?.server === 'fx')).toBe(true);
    // In parallel: bounded by the slowest timeout, not their sum.
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('never waits twice on an endpoint known bad: later discoveries reuse its failure and retry it in the background', async () => {
    const file = path.join(dir, 'registry-bad-endpoint.json');
    const hung = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], timeoutMs: 2000 };
    writeFileSync(file, JSON.stringify({ mcpServers: { fx: fxStdio, hung } }));
    const pool = new McpPool({ baseDir: PROJECT_ROOT });
    cleanups.push(() => pool.closeAll());
    const discovery = new McpDiscovery({ registry: new RegistryFile(file), pool, retryUnavailableMs: 300 });
    let began = Date.now();
    expect((await discovery.catalog()).endpoints.find((e) => e.name === 'hung')).toMatchObject({
      status: 'unavailable',
    });
    expect(Date.now() - began).toBeGreaterThanOrEqual(1900); // the first look waits out its timeout, once
    for (let turn = 0; turn < 3; turn++) {
      await new Promise((r) => setTimeout(r, 400)); // past the retry delay: a background retry starts meanwhile
      discovery.invalidate(); // a full re-discovery, as after tools/list_changed
      began = Date.now();
      const catalog = await discovery.catalog();
      // Well under the hung endpoint's 2 s timeout: it was not waited on.
      expect(Date.now() - began).toBeLessThan(1000);
      expect(catalog.endpoints.find((e) => e.name === 'hung')).toMatchObject({
        status: 'unavailable',
        error: expect.stringMatching(/2000 ms/),
      });
      expect(catalog.tools.map((t) => t.name)).toContain('fx__convert');
    }
  });

  it('reports a deleted registry and keeps serving the last valid one; refuses an oversized file', async () => {
    const { file, discovery } = setup({ fx: fxStdio });
    expect((await discovery.catalog()).tools).toHaveLength(3);
    rmSync(file);
    const deleted = await discovery.catalog();
    expect(deleted.tools).toHaveLength(3);
    expect(deleted.registryError).toMatch(/is missing \(deleted or moved\?\): still serving the last valid registry/);
    writeFileSync(file, JSON.stringify({ mcpServers: { fx: fxStdio }, padding: 'x'.repeat(1_100_000) }));
    expect((await discovery.catalog()).registryError).toMatch(
      /over the 1048576-byte limit \(still serving the last valid registry\)/,
    );
  });

  it('does not re-run a non-idempotent call that may have started; retries an idempotent one on a new session', async () => {
    const { call, tool } = setup({ chaos: chaos() });
    const ping = await tool('chaos__ping');
    const first = await call(ping, {});
    expect(await call(await tool('chaos__crash'), {})).toMatchObject({
      status: 'tool_error',
      error: expect.stringMatching(/may or may not have run, so it was not retried/),
    });
    // The pool reconnects: a new server process answers.
    const second = await call(ping, {});
    expect(second).toMatchObject({ status: 'ok' });
    expect(second).not.toEqual(first);
    await expect(call(await tool('chaos__crash_idempotent'), {})).rejects.toMatchObject({
      type: 'McpUnavailable',
      nonRetryable: false,
    });
    expect(await call(await tool('chaos__hang'), {})).toMatchObject({
      status: 'tool_error',
      error: expect.stringMatching(/timed out|may or may not have run/i),
    });
  }, 30_000);

  it('sees tools a server adds at run time, through tools/list_changed', async () => {
    const pool = new McpPool({ baseDir: PROJECT_ROOT, onToolsChanged: () => discovery.invalidate() });
    const file = path.join(dir, 'registry-grow.json');
    // No call here hangs: the handshake may take what a server started through tsx needs on a busy machine (at 3 s,
    // seen failing with three test files at once).
    writeFileSync(file, JSON.stringify({ mcpServers: { chaos: chaos({ timeoutMs: 30_000 }) } }));
    const discovery: McpDiscovery = new McpDiscovery({ registry: new RegistryFile(file), pool, ttlMs: 3_600_000 });
    cleanups.push(() => pool.closeAll());
    const before = await discovery.catalog();
    expect(before.tools.map((t) => t.name)).not.toContain('chaos__extra');
    const grow = before.tools.find((t) => t.name === 'chaos__grow')!;
    expect(await callMcpTool(discovery, pool, { name: grow.name, ref: grow.mcp!, args: {} })).toMatchObject({
      status: 'ok',
    });
    // The notification arrives after the call's answer: awaited, not slept on.
    await waitUntil(async () => (await discovery.catalog()).tools.some((t) => t.name === 'chaos__extra'));
    expect((await discovery.catalog()).version).not.toBe(before.version);
  });

  it('keeps the last good registry when an edit breaks it, and reports the error naming server and field', async () => {
    const { file, discovery } = setup({ fx: fxStdio });
    expect((await discovery.catalog()).tools).toHaveLength(3);
    writeFileSync(file, JSON.stringify({ mcpServers: { fx: { ...fxStdio, timeoutMs: 'soon' }, bad: { args: [] } } }));
    const broken = await discovery.catalog();
    expect(broken.tools).toHaveLength(3);
    expect(broken.registryError).toMatch(/server "fx": timeoutMs: .*number/);
    expect(broken.registryError).toMatch(/server "bad": command/);
    expect(broken.registryError).toMatch(/still serving the last valid registry/);
    writeFileSync(file, JSON.stringify({ mcpServers: {} }));
    const fixed = await discovery.catalog();
    expect(fixed.registryError).toBeNull();
    expect(fixed.tools).toHaveLength(0);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${seen}`)), timeoutMs);
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
