// The cap on resident stdio MCP server processes (MCP_MAX_STDIO_PROCESSES), against real server processes counted
// in /proc: the least recently used idle session is closed to make room and respawns when called again, a session
// with a call in flight is never closed under it, and remote sessions do not count.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpDiscovery } from '../../endpoints/catalog';
import { callMcpTool } from '../../endpoints/mcp/call';
import { McpPool } from '../../endpoints/mcp/pool';
import { RegistryFile } from '../../endpoints/endpoint-registry';
import { serveHttp } from '../../demo/fx';
import { PROJECT_ROOT } from '../../worker/worker-settings';

describe('McpPool with a cap on stdio server processes', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-cap-'));
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  /** Chaos servers s1..sN plus `extra` endpoints, under a pool capped at `cap` stdio processes. */
  function setup(n: number, cap: number, extra: Record<string, unknown> = {}, sessionsPerEndpoint?: number) {
    // A tag on the servers' command lines tells this test's processes from any other child of the test process.
    const tag = `--cap-test-${randomUUID()}`;
    const chaos = {
      command: process.execPath,
      args: ['--require', 'tsx/cjs', 'test/fixtures/mcp/chaos-server.ts', tag],
      timeoutMs: 10_000,
    };
    const servers = { ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i + 1}`, chaos])), ...extra };
    const file = path.join(dir, `${tag}.json`);
    writeFileSync(file, JSON.stringify({ mcpServers: servers }));
    const pool = new McpPool({
      baseDir: PROJECT_ROOT,
      maxStdioProcesses: cap,
      maxSessionsPerEndpoint: sessionsPerEndpoint,
    });
    cleanups.push(() => pool.closeAll());
    // No re-listing during a test: a discovery would open every endpoint again.
    const discovery = new McpDiscovery({ registry: new RegistryFile(file), pool, ttlMs: 3_600_000 });
    const call = async (server: string, tool: string, args: Record<string, unknown> = {}) => {
      const spec = (await discovery.catalog()).tools.find((t) => t.name === `${server}__${tool}`);
      if (!spec?.mcp) throw new Error(`no tool ${server}__${tool}`);
      return callMcpTool(discovery, pool, { name: spec.name, ref: spec.mcp, args });
    };
    /** The pid of the server process that answered. */
    const ping = async (server: string) => {
      const outcome = await call(server, 'ping');
      if (outcome.status !== 'ok') throw new Error(`${server} ping: ${JSON.stringify(outcome)}`);
      return Number(/pong from (\d+)/.exec(String(outcome.result))![1]);
    };
    const ready = async () => {
      const catalog = await discovery.catalog();
      expect(catalog.endpoints.map((e) => e.status)).toEqual(catalog.endpoints.map(() => 'ok'));
      // Discovery lists every endpoint at once, so all are in use and the cap gives way; it is restored as they finish.
      await waitFor(() => live().length <= cap);
    };
    const live = () => liveServers(tag);
    return { call, ping, ready, live };
  }

  it('keeps at most the cap of server processes alive, closing the least recently used idle one, which respawns when called', async () => {
    const { ping, ready, live } = setup(6, 2);
    await ready();
    const most = watchMax(() => live().length);
    const pid: Record<string, number> = {};
    for (const s of ['s1', 's2', 's3', 's4', 's5', 's6']) pid[s] = await ping(s);
    expect(sorted(live())).toEqual(sorted([pid.s5!, pid.s6!]));
    // s5 becomes the most recently used, so calling s1 again closes s6, and s1 answers from a new process.
    expect(await ping('s5')).toBe(pid.s5);
    const s1 = await ping('s1');
    expect(s1).not.toBe(pid.s1);
    expect(sorted(live())).toEqual(sorted([pid.s5!, s1]));
    // Each new process started only after the one making room for it had exited.
    expect(most.stop()).toBe(2);
  });

  it('never closes a session with a call in flight: it runs over the cap, and evicts once the call is done', async () => {
    const { call, ping, ready, live } = setup(2, 1);
    await ready();
    const s1 = await ping('s1');
    const most = watchMax(() => live().length);
    const slow = call('s1', 'slow', { ms: 3000 });
    await new Promise((r) => setTimeout(r, 300)); // the slow call is on the wire
    await ping('s2');
    expect(await slow).toEqual({ status: 'ok', result: `slept 3000 ms in ${s1}` });
    expect(most.stop()).toBe(2);
    // Back under the cap: s2, idle while s1 was still in use, was closed.
    await waitFor(() => live().length === 1);
    expect(live()).toEqual([s1]);
    expect(await ping('s1')).toBe(s1);
  });

  it('gives each call in flight a session of its own, up to the per-endpoint limit; a call over it waits', async () => {
    const { call, ready, live } = setup(1, 10, {}, 2);
    await ready();
    const most = watchMax(() => live().length);
    const started = Date.now();
    const pidOf = async () => {
      const outcome = await call('s1', 'slow', { ms: 700 });
      return {
        pid: Number(/in (\d+)/.exec(String((outcome as { result: unknown }).result))![1]),
        at: Date.now() - started,
      };
    };
    const [a, b, c] = await Promise.all([pidOf(), pidOf(), pidOf()]);
    // Two sessions (two server processes) at once; the third call waited for one of them to be free.
    expect(new Set([a!.pid, b!.pid]).size).toBe(2);
    expect([a!.pid, b!.pid]).toContain(c!.pid);
    expect(c!.at).toBeGreaterThanOrEqual(1400);
    expect(most.stop()).toBe(2);
  });

  it('does not count remote sessions against the cap', async () => {
    const server = await serveHttp(0);
    cleanups.push(() => server.close());
    const { call, ping, ready } = setup(1, 1, { fxweb: { url: server.url } });
    await ready();
    const s1 = await ping('s1');
    expect(await call('fxweb', 'get_rates', { base: 'EUR' })).toMatchObject({ status: 'ok' });
    expect(await ping('s1')).toBe(s1);
  });
});

/** Live (not zombie) children of the test process whose command line contains `tag`. */
function liveServers(tag: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After "pid (comm) ": state, then the parent's pid.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== process.pid || state === 'Z') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(tag)) pids.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

/** Samples `count` every few ms until stopped; stop() returns the highest value seen. */
function watchMax(count: () => number) {
  let max = count();
  const timer = setInterval(() => (max = Math.max(max, count())), 5);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(max, count());
    },
  };
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
