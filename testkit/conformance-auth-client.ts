// The MCP conformance suite's client under test, for its auth scenarios (`npx conformance client --command "node
// --require tsx/cjs testkit/conformance-auth-client.ts" --scenario auth/<x>`; the suite appends the server URL). It
// is our code end to end: the registry entry parsed and resolved, a user connecting through the connect flow (the
// browser's part played by reading the authorization server's redirect, which the suite's server answers at once),
// the grant in an encrypted token store, then the worker's pool opening the owner's session and calling a tool. A
// scenario that raises the scope mid-call (step-up) needs the user again: connected once more, as a user would be.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseRegistry, resolveEndpoint } from '../endpoints/endpoint-registry';
import { NO_HOST } from '../endpoints/mcp/call-host';
import { McpPool } from '../endpoints/mcp/pool';
import { beginConnect, finishConnect, type OAuthTarget } from '../endpoints/mcp/oauth/connect-flow';
import { OAuthAccess } from '../endpoints/mcp/oauth/oauth-access';
import { NeedsConnecting } from '../endpoints/mcp/oauth/provider';
import { TokenStore } from '../endpoints/mcp/oauth/token-store';

const OWNER = 'conformance-user';
const REDIRECT_URI = 'http://localhost:3000/callback';

/** What the suite hands some scenarios: a pre-registered client. */
interface ConformanceContext {
  client_id?: string;
  client_secret?: string;
}

/** The user's part: open the authorization URL, come back to the callback with its code and state. */
async function connect(store: TokenStore, target: OAuthTarget): Promise<void> {
  const { authorizationUrl } = await beginConnect(store, target, OWNER, REDIRECT_URI);
  const consent = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = consent.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${consent.status} without a redirect`);
  const back = new URL(location);
  const q = back.searchParams;
  await finishConnect(
    store,
    {
      state: q.get('state') ?? undefined,
      code: q.get('code') ?? undefined,
      error: q.get('error') ?? undefined,
      errorDescription: q.get('error_description') ?? undefined,
    },
    () => target,
  );
}

async function main(): Promise<void> {
  const serverUrl = process.argv.at(-1)!;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ConformanceContext;
  const auth = {
    type: 'oauth',
    ...(context.client_id ? { clientId: context.client_id } : {}),
    ...(context.client_secret ? { clientSecret: '${env:CONFORMANCE_CLIENT_SECRET}' } : {}),
  };
  const env = { CONFORMANCE_CLIENT_SECRET: context.client_secret };
  const registry = parseRegistry(JSON.stringify({ mcpServers: { conformance: { url: serverUrl, auth } } }));
  const endpoint = resolveEndpoint('conformance', registry.endpoints.conformance!, env);
  const resolved = endpoint.resolved as { url: string; auth: OAuthTarget['auth'] };
  const target: OAuthTarget = { endpoint: 'conformance', serverUrl: resolved.url, auth: resolved.auth };

  const store = new TokenStore(
    path.join(mkdtempSync(path.join(tmpdir(), 'conformance-')), 'mcp-oauth'),
    randomBytes(32),
  );
  const pool = new McpPool({ baseDir: process.cwd(), oauth: new OAuthAccess({ folder: store.folder, store }) });
  try {
    await connect(store, target);
    for (let attempt = 1; ; attempt++) {
      try {
        const lease = await pool.acquire(endpoint, 20_000, NO_HOST, OWNER);
        try {
          await lease.client.listTools();
          await lease.client.callTool({ name: 'test-tool', arguments: {} });
          return;
        } finally {
          lease.release();
        }
      } catch (err) {
        if (!(err instanceof NeedsConnecting) || attempt >= 2) throw err;
        await pool.drop('conformance');
        await connect(store, target);
      }
    }
  } finally {
    await pool.closeAll();
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(`conformance client: ${err.message}`);
    process.exit(1);
  },
);
