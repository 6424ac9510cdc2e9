// Connecting an MCP server that needs OAuth, once per owner: `GET /api/endpoints/{name}/connect` sends the caller (the
// owner of their API key) to the server's authorization server, `GET /api/oauth/callback` takes the code back and
// stores the grant, encrypted, where the workers read it (endpoints/mcp/oauth/). The callback carries no API key (a browser
// arrives from the authorization server): the state it brings is the proof — random, bound to owner and endpoint
// when the connect began, and good once. The endpoint list is shown as the caller has it: an OAuth endpoint they have
// not connected "needs connecting", whatever the worker-wide catalog says.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { beginConnect, ConnectError, finishConnect, PENDING_MS } from '../endpoints/mcp/oauth/connect-flow';
import { endpointsForOwner, TargetError } from '../endpoints/mcp/oauth/oauth-endpoints';
import { ownerOrDefault } from '../endpoints/mcp/oauth/oauth-settings';
import type { CatalogSummary } from '../core/types';
import type { ApiEnv } from './auth';
import type { ApiOAuth } from './api-settings';
import { ErrorBody, errors, json } from './schemas';

/** The one route a browser reaches without an API key. */
export const OAUTH_CALLBACK_PATH = '/api/oauth/callback';

const NameParam = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'notes' }),
});

const Connecting = z
  .object({
    endpoint: z.string(),
    owner: z.string(),
    authorizationUrl: z
      .string()
      .openapi({ description: 'Open this in a browser to consent; it returns to the callback' }),
    expiresInSeconds: z.number(),
  })
  .openapi('Connecting');

export function addOAuthRoutes(app: OpenAPIHono<ApiEnv>, oauth: ApiOAuth | undefined): void {
  // Before the worker routes: this rewrites their endpoint list into the caller's view.
  app.use('/api/endpoints', async (c, next) => {
    await next();
    if (!oauth || c.req.method !== 'GET' || c.res.status !== 200) return;
    const catalog = (await c.res.json()) as CatalogSummary;
    const owner = ownerOrDefault(c.get('caller').owner);
    const endpoints = endpointsForOwner(catalog.endpoints, oauth.endpoints.names(), oauth.tokens, owner);
    const headers = new Headers(c.res.headers);
    headers.delete('content-length'); // the body changed
    c.res = new Response(JSON.stringify({ ...catalog, endpoints }), { status: 200, headers });
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/endpoints/{name}/connect',
      summary: 'Connect the caller to an MCP server that needs OAuth: a redirect to its authorization server',
      description:
        'Answers 302 to the authorization URL, or 200 with it as JSON when the request accepts application/json (the web chat) or says ?redirect=false.',
      request: { params: NameParam, query: z.object({ redirect: z.enum(['true', 'false']).optional() }) },
      responses: {
        200: json(Connecting, 'Where to send the user'),
        302: { description: 'To the authorization server' },
        502: json(ErrorBody, 'The MCP server or its authorization server could not be reached or refused'),
        503: json(ErrorBody, 'The API keeps no OAuth tokens (MCP_TOKEN_KEY unset)'),
        ...errors,
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      if (!oauth?.tokens.store)
        return c.json({ error: oauth?.tokens.error ?? 'This API does not connect OAuth endpoints.' }, 503);
      let target;
      try {
        target = oauth.endpoints.target(name);
      } catch (err) {
        if (err instanceof TargetError) return c.json({ error: err.message }, err.kind === 'not_found' ? 404 : 400);
        throw err;
      }
      const owner = ownerOrDefault(c.get('caller').owner);
      const redirectUri = `${oauth.publicUrl ?? new URL(c.req.url).origin}${OAUTH_CALLBACK_PATH}`;
      let authorizationUrl: string;
      try {
        ({ authorizationUrl } = await beginConnect(oauth.tokens.store, target, owner, redirectUri));
      } catch (err) {
        return c.json({ error: `Cannot start connecting "${name}": ${(err as Error).message}` }, 502);
      }
      const wantsJson = c.req.query('redirect') === 'false' || (c.req.header('accept') ?? '').includes('json');
      if (!wantsJson) return c.redirect(authorizationUrl, 302);
      return c.json({ endpoint: name, owner, authorizationUrl, expiresInSeconds: PENDING_MS / 1000 }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: OAUTH_CALLBACK_PATH,
      summary: 'Where the authorization server returns the user: the code is exchanged and the grant stored',
      request: {
        query: z.object({
          state: z.string().max(200).optional(),
          code: z.string().max(4_000).optional(),
          error: z.string().max(200).optional(),
          error_description: z.string().max(1_000).optional(),
        }),
      },
      responses: {
        200: {
          description: 'A page saying the endpoint is connected',
          content: { 'text/html': { schema: z.string() } },
        },
        400: { description: 'A page saying why not', content: { 'text/html': { schema: z.string() } } },
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      if (!oauth?.tokens.store) return page(c, 400, 'Not connected', oauth?.tokens.error ?? 'OAuth is not set up.');
      try {
        const { endpoint } = await finishConnect(
          oauth.tokens.store,
          { state: q.state, code: q.code, error: q.error, errorDescription: q.error_description },
          (name) => oauth.endpoints.target(name),
        );
        return page(c, 200, `Connected ${endpoint}`, 'Its tools now work in your conversations.');
      } catch (err) {
        if (!(err instanceof ConnectError || err instanceof TargetError)) console.error(err);
        return page(c, 400, 'Not connected', (err as Error).message);
      }
    },
  );
}

/** A small page for the browser the authorization server sent back. */
function page(c: Context<ApiEnv>, status: 200 | 400, title: string, text: string) {
  const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return c.html(
    `<!doctype html><meta charset="utf-8"><title>${escape(title)}</title><h1>${escape(title)}</h1><p>${escape(text)}</p>` +
      '<p><a href="/">Back to the chat</a></p>',
    status,
  );
}
