// The MCP server's session table and its DNS rebinding guard, without Temporal: a session is bound to the owner that
// opened it, idle ones and the least recently used past the cap are closed when another opens, and a keyless /mcp
// answers loopback hosts and origins only.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../../api/auth';
import { rebindingRefusal } from '../../api/mcp-server/rebinding';
import { McpSessions } from '../../api/mcp-server/sessions';

const ALICE: Caller = { owner: 'alice', admin: false };
const BOB: Caller = { owner: 'bob', admin: false };

function initialize(): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

async function open(sessions: McpSessions, caller: Caller): Promise<string> {
  const res = await sessions.initialize(caller, initialize());
  expect(res.status).toBe(200);
  return res.headers.get('mcp-session-id')!;
}

describe('McpSessions', () => {
  const limits = { idleMs: 60_000, maxSessions: 2, maxBodyBytes: 64 * 1024 };
  const server = () => new McpServer({ name: 't', version: '1' });
  afterEach(() => jest.useRealTimers());

  it('finds a session for the owner that opened it only', async () => {
    const sessions = new McpSessions(limits, server);
    const id = await open(sessions, ALICE);
    expect(sessions.find(id, ALICE)).toBeDefined();
    expect(sessions.find(id, BOB)).toBeUndefined();
    expect(sessions.find(id, { owner: 'alice', admin: true })).toBeUndefined();
    await sessions.closeAll();
    expect(sessions.find(id, ALICE)).toBeUndefined();
  });

  it('keeps no session for a request that is not an initialize', async () => {
    const sessions = new McpSessions(limits, server);
    const res = await sessions.initialize(
      ALICE,
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(res.status).toBe(400);
    expect(sessions.size).toBe(0);
  });

  it('closes the least recently used past the cap, and idle ones, when another opens', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const sessions = new McpSessions(limits, server);
    const first = await open(sessions, ALICE);
    jest.advanceTimersByTime(10);
    const second = await open(sessions, ALICE);
    jest.advanceTimersByTime(10);
    sessions.find(first, ALICE); // used again: now the second is the least recently used
    const third = await open(sessions, ALICE);
    expect([first, second, third].map((id) => !!sessions.find(id, ALICE))).toEqual([true, false, true]);

    jest.advanceTimersByTime(limits.idleMs);
    await open(sessions, BOB);
    expect(sessions.size).toBe(1);
    await sessions.closeAll();
  });
});

describe('rebindingRefusal', () => {
  const headers = (h: Record<string, string>) => new Headers(h);

  it('answers loopback hosts and origins', () => {
    for (const host of ['127.0.0.1:8080', 'localhost', 'LOCALHOST:1', '[::1]:8080'])
      expect(rebindingRefusal(headers({ host }))).toBeNull();
    expect(rebindingRefusal(headers({ host: 'localhost:8080', origin: 'http://127.0.0.1:3000' }))).toBeNull();
  });

  it('refuses a foreign host or origin, naming it', () => {
    expect(rebindingRefusal(headers({ host: 'evil.example.com' }))).toMatch(/Host evil\.example\.com is not this/);
    expect(rebindingRefusal(headers({ host: '127.0.0.1.evil.com:80' }))).toMatch(/is not this machine/);
    expect(rebindingRefusal(headers({ host: 'localhost', origin: 'http://evil.example.com' }))).toMatch(
      /Origin http:\/\/evil\.example\.com/,
    );
    expect(rebindingRefusal(headers({ host: 'localhost', origin: 'null' }))).toMatch(/Origin null/);
  });
});
