// `agent endpoints connect <name>`: connects an owner to an MCP server that needs OAuth from a terminal. It prints
// the authorization link and waits for the browser to come back to a loopback address of its own (RFC 8252: a
// native app's redirect), then stores the grant in the token store the worker reads — so it works where the CLI
// shares the worker's data folder and key (`npm start`, one machine); elsewhere, Connect in the web chat does the
// same through the API. `agent endpoints [--owner]` shows each OAuth endpoint as that owner has it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { CatalogSummary } from '../core/types';
import { RegistryFile } from '../endpoints/endpoint-registry';
import { beginConnect, finishConnect, PENDING_MS } from '../endpoints/mcp/oauth/connect-flow';
import { endpointsForOwner, OAuthEndpoints, TargetError } from '../endpoints/mcp/oauth/oauth-endpoints';
import { openTokenStore, ownerOrDefault, type OAuthStore } from '../endpoints/mcp/oauth/oauth-settings';
import { DEFAULT_DATA_DIR } from '../runtime/connection';
import { PROJECT_ROOT } from '../tools/project-root';
import { UserError } from '../core/user-error';

/** The worker's registry and token store, as its settings name them (MCP_ENDPOINTS_FILE, DATA_DIR, MCP_TOKEN_KEY). */
function local(env: NodeJS.ProcessEnv): { endpoints: OAuthEndpoints; tokens: OAuthStore } {
  const file = path.resolve(env.MCP_ENDPOINTS_FILE || path.join(PROJECT_ROOT, 'config', 'mcp_endpoints.json'));
  let tokens: OAuthStore;
  try {
    tokens = openTokenStore(path.resolve(env.DATA_DIR || DEFAULT_DATA_DIR), env.MCP_TOKEN_KEY);
  } catch (err) {
    throw new UserError((err as Error).message);
  }
  return { endpoints: new OAuthEndpoints(new RegistryFile(file), env), tokens };
}

/** The worker's endpoint list as `owner` has it: OAuth endpoints this owner has not connected need connecting. */
export function catalogForOwner(catalog: CatalogSummary, owner: string | undefined, env: NodeJS.ProcessEnv) {
  const { endpoints, tokens } = local(env);
  const view = endpointsForOwner(catalog.endpoints, endpoints.names(), tokens, ownerOrDefault(owner));
  return { ...catalog, endpoints: view };
}

/** Prints the link, waits for the callback (10 minutes at most), stores the grant. */
export async function connectEndpoint(
  name: string,
  owner: string | undefined,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<{ endpoint: string; owner: string }> {
  const { endpoints, tokens } = local(env);
  if (!tokens.store) throw new UserError(tokens.error);
  const store = tokens.store;
  let target;
  try {
    target = endpoints.target(name);
  } catch (err) {
    throw new UserError((err as Error).message, err instanceof TargetError ? err.kind : 'invalid');
  }
  const who = ownerOrDefault(owner);
  let done: (result: { endpoint: string; owner: string } | Error) => void = () => {};
  const finished = new Promise<{ endpoint: string; owner: string } | Error>((resolve) => (done = resolve));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    const q = url.searchParams;
    const params = { state: q.get('state') ?? undefined, code: q.get('code') ?? undefined };
    const refused = { error: q.get('error') ?? undefined, errorDescription: q.get('error_description') ?? undefined };
    finishConnect(store, { ...params, ...refused }, (n) => endpoints.target(n)).then(
      (result) => {
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(`Connected ${result.endpoint}. You can close this tab.`);
        done(result);
      },
      (err: Error) => {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`Not connected: ${err.message}`);
        done(err);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    let authorizationUrl: string;
    try {
      ({ authorizationUrl } = await beginConnect(store, target, who, redirectUri));
    } catch (err) {
      throw new UserError(`Cannot start connecting "${name}": ${(err as Error).message}`, 'unavailable');
    }
    say(`Open this link to connect ${name} (as ${who}):\n${authorizationUrl}\nWaiting for the browser to come back…`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Error>((resolve) => {
      timer = setTimeout(() => resolve(new UserError('Nobody finished connecting within 10 minutes.')), PENDING_MS);
    });
    const result = await Promise.race([finished, timeout]).finally(() => clearTimeout(timer));
    if (result instanceof Error) throw result instanceof UserError ? result : new UserError(result.message);
    return result;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
