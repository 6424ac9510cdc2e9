// The MCP SDK's OAuthClientProvider over our token store, for the worker: the Streamable HTTP transport asks it for
// the owner's access token on every request, and on a 401 the SDK's auth() refreshes through it (the new tokens are
// written back, encrypted, for every process sharing the store). The worker never starts an authorization: where the
// SDK would send the user to the authorization server (no grant, or a refresh the server refused), it stops with
// NeedsConnecting, which the call turns into a tool error telling the user how to connect.
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthEntry } from '../../endpoint-registry';
import type { Grant, TokenStore } from './token-store';

/** An OAuth endpoint this owner has not connected (or whose grant the server refused): the user must connect it. */
export class NeedsConnecting extends Error {
  constructor(
    readonly endpoint: string,
    /** Why no owner can connect at all (no token key), instead of the usual advice. */
    reason?: string,
    /** The scope the server asked for beyond the grant's: the user connects again to give it. */
    moreScope?: string,
  ) {
    super(
      reason ? `The MCP server "${endpoint}" cannot be used: ${reason}.` : needsConnectingMessage(endpoint, moreScope),
    );
  }
}

/** What the model (and so the user) is told: the two ways to connect. */
export function needsConnectingMessage(endpoint: string, moreScope?: string): string {
  const how = `run \`agent endpoints connect ${endpoint}\` or use Connect in the web chat, then ask again`;
  return moreScope
    ? `The MCP server "${endpoint}" needs connecting again to allow more (${moreScope}): ${how}.`
    : `The MCP server "${endpoint}" needs connecting: ${how}.`;
}

/** The client we present to authorization servers: public (PKCE) unless the entry names a secret. */
export function clientMetadata(auth: OAuthEntry, redirectUri: string): OAuthClientMetadata {
  return {
    client_name: 'Temporal agent orchestrator',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: auth.clientSecret ? 'client_secret_basic' : 'none',
    ...(auth.scopes?.length ? { scope: auth.scopes.join(' ') } : {}),
  };
}

/** A pre-registered client (the entry's clientId) wins over what was stored; else the stored registration. */
export function configuredClient(
  auth: OAuthEntry,
  stored: OAuthClientInformationMixed | undefined,
): OAuthClientInformationMixed | undefined {
  if (!auth.clientId) return stored;
  const same = stored?.client_id === auth.clientId ? stored : undefined;
  return {
    ...same,
    client_id: auth.clientId,
    ...(auth.clientSecret ? { client_secret: auth.clientSecret } : {}),
  };
}

/** One owner's grant for one endpoint, as the SDK's transport and auth() use it in the worker. */
export class GrantProvider implements OAuthClientProvider {
  /** The refresh token last handed to the SDK: a refusal of it does not condemn a newer one saved meanwhile. */
  private presentedRefresh: string | undefined;

  constructor(
    private readonly store: TokenStore,
    private readonly endpoint: string,
    private readonly owner: string,
    private readonly serverUrl: string,
    private readonly auth: OAuthEntry,
    private readonly onSecrets?: (values: string[]) => void,
  ) {}

  /** The grant, read afresh each time: another process (a connect, another worker's refresh) may have replaced it. */
  private grant(): Grant | undefined {
    const grant = this.store.readGrant(this.endpoint, this.owner);
    return grant && grant.serverUrl === this.serverUrl ? grant : undefined;
  }

  private update(change: Partial<Grant>): void {
    const grant = this.grant();
    if (!grant) throw new NeedsConnecting(this.endpoint);
    this.store.saveGrant({ ...grant, ...change, savedAt: new Date().toISOString() });
  }

  /** A redirect URL must exist, or the SDK would take this for a client-credentials client; the worker never uses it. */
  get redirectUrl(): string {
    return this.grant()?.redirectUri ?? 'http://127.0.0.1/oauth/callback';
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadata(this.auth, this.redirectUrl);
  }

  /** Without a grant there is nothing to present: refuse before the SDK registers a client of its own. */
  clientInformation(): OAuthClientInformationMixed {
    const grant = this.grant();
    if (!grant) throw new NeedsConnecting(this.endpoint);
    return configuredClient(this.auth, grant.client)!;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.update({ client });
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.grant()?.tokens;
    if (tokens) this.onSecrets?.([tokens.access_token, tokens.refresh_token ?? '']);
    this.presentedRefresh = tokens?.refresh_token;
    return tokens;
  }

  /** A refresh: written back at once, so the next request (in any process) presents the new access token. */
  saveTokens(tokens: OAuthTokens): void {
    const old = this.grant()?.tokens;
    // A server that does not rotate refresh tokens omits it from the answer: the old one stays good.
    this.onSecrets?.([tokens.access_token, tokens.refresh_token ?? '']);
    this.update({ tokens: { ...tokens, refresh_token: tokens.refresh_token ?? old?.refresh_token } });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.grant()?.discovery;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    if (this.grant()) this.update({ discovery });
  }

  /** The worker cannot send anyone to a browser: the user connects through the API, the web chat or the CLI. */
  redirectToAuthorization(): never {
    throw new NeedsConnecting(this.endpoint);
  }

  saveCodeVerifier(): void {
    // Only reached on the way to redirectToAuthorization, which refuses.
  }

  codeVerifier(): never {
    throw new NeedsConnecting(this.endpoint);
  }

  /** The server refused the grant (a refresh answered invalid_grant, the client unknown): forget it, so the owner
   * shows as needing to connect again rather than failing the same way on every call. */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens' || scope === 'client') {
      // Two sessions (or workers) refreshing at once: the server rotated the token for the other, which saved it.
      // The SDK tries again with the stored tokens then, which are good; only a refusal of the latest is final.
      const latest = this.grant()?.tokens.refresh_token;
      if (scope === 'tokens' && latest && latest !== this.presentedRefresh) return;
      this.store.deleteGrant(this.endpoint, this.owner);
    } else if (scope === 'discovery' && this.grant()) this.update({ discovery: undefined });
  }
}
