// Connecting an owner to an OAuth endpoint, in two steps that may run in different processes: begin (discover the
// authorization server from the MCP server's protected-resource metadata, register a client when none is configured,
// make a PKCE pair, and hand back the authorization URL) and finish (the callback: exchange the code with the
// verifier kept server-side and store the grant). Every protocol step is the MCP SDK's auth(); this file only says
// where its state lives. The state parameter is random, bound to owner and endpoint, and good for one callback.
import { randomBytes } from 'node:crypto';
import {
  auth,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthEntry } from '../../endpoint-registry';
import { clientMetadata, configuredClient } from './provider';
import type { TokenStore } from './token-store';

/** An OAuth endpoint of the registry, its `${env:…}` references resolved by the process connecting it. */
export interface OAuthTarget {
  endpoint: string;
  serverUrl: string;
  auth: OAuthEntry;
}

/** How long a user has to finish at the authorization server. */
export const PENDING_MS = 10 * 60_000;

/** A callback that cannot be honoured: unknown or used state, expired, or the server refused the code. */
export class ConnectError extends Error {}

/** The provider of one authorization: everything in memory until begin or finish writes it to the store. */
class FlowProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  discovery: OAuthDiscoveryState | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  tokens_: OAuthTokens | undefined;

  constructor(
    private readonly store: TokenStore,
    private readonly target: OAuthTarget,
    readonly redirectUrl: string,
    private readonly stateValue: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadata(this.target.auth, this.redirectUrl);
  }
  state(): string {
    return this.stateValue;
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return configuredClient(this.target.auth, this.client);
  }
  /** A dynamic registration is kept (encrypted) for the next owner who connects through the same redirect URI. */
  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.client = client;
    if (!this.target.auth.clientId) this.store.saveClient(this.target.endpoint, this.redirectUrl, client);
  }
  /** A new authorization every time: connecting again replaces the grant rather than refreshing the old one. */
  tokens(): undefined {
    return undefined;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.tokens_ = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    // A stored registration the server no longer knows: register afresh.
    if ((scope === 'all' || scope === 'client') && !this.target.auth.clientId) {
      this.store.deleteClient(this.target.endpoint, this.redirectUrl);
      this.client = undefined;
    }
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}

/** Starts a connection: the URL to send the owner to. Nothing is stored for the owner until the callback. */
export async function beginConnect(
  store: TokenStore,
  target: OAuthTarget,
  owner: string,
  redirectUri: string,
  fetchFn?: FetchLike,
): Promise<{ authorizationUrl: string; state: string }> {
  const state = randomBytes(24).toString('base64url');
  const provider = new FlowProvider(store, target, redirectUri, state);
  provider.client = target.auth.clientId ? undefined : store.readClient(target.endpoint, redirectUri);
  const { resourceMetadataUrl, scope: asked } = await challenge(target.serverUrl, fetchFn);
  // Connecting again after the server asked for more (insufficient_scope): ask for that too.
  const wanted = store.hasGrant(target.endpoint, owner) ? grantWants(store, target.endpoint, owner) : undefined;
  const scope = union(asked, wanted);
  const result = await auth(provider, { serverUrl: target.serverUrl, resourceMetadataUrl, scope, fetchFn });
  if (result !== 'REDIRECT' || !provider.authorizationUrl) {
    throw new ConnectError(`the authorization server of "${target.endpoint}" did not ask for a user's consent`);
  }
  store.savePending(state, {
    endpoint: target.endpoint,
    owner,
    serverUrl: target.serverUrl,
    codeVerifier: provider.verifier,
    redirectUri,
    client: provider.clientInformation()!,
    discovery: provider.discovery,
    expiresAt: Date.now() + PENDING_MS,
  });
  return { authorizationUrl: provider.authorizationUrl.href, state };
}

/** The scope the owner's grant was refused for, if any; an unreadable grant (another key) wants nothing. */
function grantWants(store: TokenStore, endpoint: string, owner: string): string | undefined {
  try {
    return store.readGrant(endpoint, owner)?.wantedScope;
  } catch {
    return undefined;
  }
}

/** Scopes of both, once each; undefined when neither has any (the SDK then picks from the metadata). */
function union(...scopes: (string | undefined)[]): string | undefined {
  const all = [...new Set(scopes.flatMap((s) => s?.split(' ') ?? []).filter(Boolean))];
  return all.length ? all.join(' ') : undefined;
}

/**
 * What the server says when asked without a token, as a client's first request would be: its 401 may point at
 * protected-resource metadata somewhere other than the well-known path, and name the scope it wants (the SDK's
 * transport reads the same header). A server that does not answer 401 leaves discovery to the well-known paths.
 */
async function challenge(
  serverUrl: string,
  fetchFn: FetchLike = fetch,
): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'temporal-agent-orchestrator', version: '0.1.0' },
    },
  };
  try {
    const res = await fetchFn(serverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    await res.body?.cancel();
    if (res.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(res);
    return { resourceMetadataUrl, scope };
  } catch {
    return {};
  }
}

/**
 * The callback: the state's authorization (taken, so a replay finds nothing), the code exchanged with its verifier,
 * and the owner's grant stored. `targetOf` resolves the endpoint as the registry says now.
 */
export async function finishConnect(
  store: TokenStore,
  params: { state?: string; code?: string; error?: string; errorDescription?: string },
  targetOf: (endpoint: string) => OAuthTarget,
  fetchFn?: FetchLike,
): Promise<{ endpoint: string; owner: string }> {
  const pending = params.state ? store.takePending(params.state) : undefined;
  if (!pending) throw new ConnectError('this authorization is unknown or was already used: start connecting again');
  if (pending.expiresAt < Date.now()) throw new ConnectError('this authorization expired: start connecting again');
  if (params.error) {
    const why = params.errorDescription ? `${params.error}: ${params.errorDescription}` : params.error;
    throw new ConnectError(`the authorization server refused (${why})`);
  }
  if (!params.code) throw new ConnectError('the callback carries no authorization code');
  const target = targetOf(pending.endpoint);
  if (target.serverUrl !== pending.serverUrl) {
    throw new ConnectError(`the registry entry of "${pending.endpoint}" changed meanwhile: start connecting again`);
  }
  const provider = new FlowProvider(store, target, pending.redirectUri, params.state!);
  provider.client = pending.client;
  provider.discovery = pending.discovery;
  provider.verifier = pending.codeVerifier;
  try {
    await auth(provider, { serverUrl: target.serverUrl, authorizationCode: params.code, fetchFn });
  } catch (err) {
    throw new ConnectError(`exchanging the code failed: ${(err as Error).message}`);
  }
  if (!provider.tokens_) throw new ConnectError('the authorization server answered without tokens');
  store.saveGrant(
    {
      endpoint: pending.endpoint,
      owner: pending.owner,
      serverUrl: pending.serverUrl,
      tokens: provider.tokens_,
      client: provider.clientInformation()!,
      redirectUri: pending.redirectUri,
      discovery: provider.discovery,
      savedAt: new Date().toISOString(),
    },
    true,
  );
  return { endpoint: pending.endpoint, owner: pending.owner };
}
