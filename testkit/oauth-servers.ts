// A real authorization server (npm oauth2-mock-server: authorization code with PKCE, refresh, JWKS) in front of an
// MCP server that requires its tokens: the SDK's bearer-auth middleware checks each request's JWT against the
// server's JWKS, and a 401 points at the protected-resource metadata (RFC 9728) naming the authorization server.
// Run as a process of its own (the mock server is an ES module): `node --require tsx/cjs testkit/oauth-servers.ts`
// prints one line `oauth servers ready {issuer, mcpUrl}`. Short token lifetimes (OAUTH_TOKEN_TTL_S) make refreshes
// happen; POST <issuer>/_test/revoke refuses every token issued so far, as a user revoking the app would.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { startProcess } from './process';

export const OAUTH_CLIENT_ID = 'agent-orchestrator-test';

/** What the servers saw, for a test to check: token requests by grant type, tool calls and who made them. */
interface Stats {
  grants: Record<string, number>;
  refused: number;
  calls: { tool: string; subject: string }[];
  /** Every access and refresh token handed out: what must appear in no history, log or trace. */
  issued: string[];
}

async function main(): Promise<void> {
  const ttl = Number(process.env.OAUTH_TOKEN_TTL_S ?? 3600);
  const { OAuth2Server } = await import('oauth2-mock-server');
  const { createRemoteJWKSet, jwtVerify } = await import('jose');
  const stats: Stats = { grants: {}, refused: 0, calls: [], issued: [] };
  /** Tokens issued before this (epoch s) are refused: access tokens by the MCP server, refresh tokens here. */
  let revokedBefore = 0;
  const refreshIssued = new Map<string, number>();
  // The scope the user consented to, from the authorization request to the code, then to the refresh token.
  const codeScopes = new Map<string, string>();
  const refreshScopes = new Map<string, string>();

  const as = new OAuth2Server();
  await as.issuer.keys.generate('RS256');
  const asHttp = createServer((req, res) => {
    if (req.url === '/_test/revoke' && req.method === 'POST') {
      revokedBefore = Date.now() / 1000 + 0.001;
      return void res.writeHead(204).end();
    }
    if (req.url === '/_test/stats') return void res.writeHead(200).end(JSON.stringify(stats));
    return as.service.requestHandler(req, res);
  });
  await new Promise<void>((r) => asHttp.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(asHttp.address() as AddressInfo).port}`;
  as.issuer.url = issuer;

  as.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: { query: Record<string, string> }) => {
    const code = redirect.url.searchParams.get('code');
    if (code) codeScopes.set(code, req.query.scope ?? '');
  });
  const grantedScope = (body: Record<string, string>) =>
    body.code ? codeScopes.get(body.code) : refreshScopes.get(body.refresh_token ?? '');
  as.service.on(
    'beforeTokenSigning',
    (token: { payload: Record<string, unknown> }, req: { body: Record<string, string> }) => {
      const scope = grantedScope(req.body);
      if (scope !== undefined && token.payload.scope !== undefined) token.payload.scope = scope;
      const now = Math.floor(Date.now() / 1000);
      token.payload.iat = now;
      token.payload.iat_ms = Date.now();
      token.payload.exp = now + ttl;
    },
  );
  as.service.on(
    'beforeResponse',
    (response: { body: Record<string, unknown>; statusCode: number }, req: { body: Record<string, string> }) => {
      const grant = req.body.grant_type ?? '?';
      if (grant === 'refresh_token' && (refreshIssued.get(req.body.refresh_token ?? '') ?? 0) < revokedBefore) {
        stats.refused++;
        response.statusCode = 400;
        response.body = { error: 'invalid_grant', error_description: 'the refresh token was revoked' };
        return;
      }
      stats.grants[grant] = (stats.grants[grant] ?? 0) + 1;
      response.body.expires_in = ttl;
      const scope = grantedScope(req.body);
      if (scope !== undefined) response.body.scope = scope;
      if (typeof response.body.refresh_token === 'string' && scope !== undefined)
        refreshScopes.set(response.body.refresh_token, scope);
      for (const key of ['access_token', 'refresh_token', 'id_token'])
        if (typeof response.body[key] === 'string') stats.issued.push(response.body[key]);
      if (typeof response.body.refresh_token === 'string')
        refreshIssued.set(response.body.refresh_token, Date.now() / 1000);
    },
  );

  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  let mcpBase = '';
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer });
        if (Number(payload.iat_ms) / 1000 < revokedBefore) throw new Error('revoked');
        return {
          token,
          clientId: String(payload.aud ?? OAUTH_CLIENT_ID),
          scopes: String(payload.scope ?? '')
            .split(' ')
            .filter(Boolean),
          expiresAt: payload.exp,
          extra: { subject: payload.sub },
        };
      } catch (err) {
        throw new InvalidTokenError(`token refused: ${(err as Error).message}`);
      }
    },
  };
  const metadataPath = '/.well-known/oauth-protected-resource/mcp';

  const mcpHttp = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === metadataPath) {
      const metadata = { resource: `${mcpBase}/mcp`, authorization_servers: [issuer], scopes_supported: ['notes'] };
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata));
    }
    if (req.url !== '/mcp') return void res.writeHead(404).end();
    // The SDK's middleware is written for Express: this is the part of Express's response it uses.
    const expressLike = Object.assign(res, {
      set: (name: string, value: string) => (res.setHeader(name, value), expressLike),
      status: (code: number) => ((res.statusCode = code), expressLike),
      json: (body: unknown) => res.setHeader('content-type', 'application/json').end(JSON.stringify(body)),
    });
    const middleware = requireBearerAuth({ verifier, resourceMetadataUrl: `${mcpBase}${metadataPath}` });
    void middleware(
      req as never,
      expressLike as never,
      () => void serveMcp(req, res, stats, `${mcpBase}${metadataPath}`),
    );
  });
  await new Promise<void>((r) => mcpHttp.listen(0, '127.0.0.1', r));
  mcpBase = `http://127.0.0.1:${(mcpHttp.address() as AddressInfo).port}`;
  console.log(`oauth servers ready ${JSON.stringify({ issuer, mcpUrl: `${mcpBase}/mcp` })}`);
}

/** A tool the user must allow beyond reading (its scope): without it the server answers 403 insufficient_scope. */
const WRITE_SCOPE = 'notes:write';

/** A stateless MCP server per request, whose tools say who called (the token's subject). */
async function serveMcp(req: IncomingMessage, res: ServerResponse, stats: Stats, metadataUrl: string): Promise<void> {
  const auth = (req as { auth?: AuthInfo }).auth;
  const subject = String(auth?.extra?.subject ?? 'nobody');
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as {
    method?: string;
    params?: { name?: string };
  };
  if (body?.method === 'tools/call' && body.params?.name === 'write_note' && !auth?.scopes.includes(WRITE_SCOPE)) {
    const challenge = `Bearer error="insufficient_scope", scope="notes ${WRITE_SCOPE}", resource_metadata="${metadataUrl}"`;
    res.writeHead(403, { 'www-authenticate': challenge, 'content-type': 'application/json' });
    return void res.end(JSON.stringify({ error: 'insufficient_scope' }));
  }
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool(
    'lookup',
    {
      description: 'Look up the team notes on a topic.',
      inputSchema: { topic: z.string() },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    async ({ topic }) => {
      stats.calls.push({ tool: 'lookup', subject });
      return { content: [{ type: 'text', text: `Notes on ${topic}, read for ${subject}.` }] };
    },
  );
  server.registerTool(
    'write_note',
    { description: 'Add to the team notes (needs the notes:write scope).', inputSchema: { text: z.string() } },
    async ({ text }) => {
      stats.calls.push({ tool: 'write_note', subject });
      return { content: [{ type: 'text', text: `Noted "${text}" for ${subject}.` }] };
    },
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(req as never, res, body);
}

export type { Stats as OAuthStats };

export interface OAuthServers {
  issuer: string;
  mcpUrl: string;
  /** Refuses every access and refresh token issued so far. */
  revoke(): Promise<void>;
  stats(): Promise<Stats>;
  output(): string;
  stop(): Promise<void>;
}

/** Starts the pair in a process of its own; `ttlSeconds` is every token's lifetime. */
export async function startOAuthServers(ttlSeconds = 3600): Promise<OAuthServers> {
  const started = await startProcess(
    process.execPath,
    ['--require', 'tsx/cjs', path.join(__dirname, 'oauth-servers.ts')],
    {
      cwd: path.join(__dirname, '..'),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OAUTH_TOKEN_TTL_S: String(ttlSeconds) },
      ready: /oauth servers ready (\{.*\})/,
      what: 'the OAuth test servers',
      timeoutMs: 30_000,
    },
  );
  const { issuer, mcpUrl } = JSON.parse(started.ready[1]!) as { issuer: string; mcpUrl: string };
  return {
    issuer,
    mcpUrl,
    revoke: async () => void (await fetch(`${issuer}/_test/revoke`, { method: 'POST' })),
    stats: async () => (await (await fetch(`${issuer}/_test/stats`)).json()) as Stats,
    output: started.output,
    stop: () => started.end('SIGTERM'),
  };
}

if (require.main === module) void main();
