// The worker's way to OAuth endpoints: a provider per (endpoint, owner) for the pool's sessions, the check that an
// owner is connected before anything is sent, and the owner whose grant discovery lists tools with. The catalog is
// worker-wide while tokens are per owner, so discovery borrows one owner's grant: the configured one
// (MCP_OAUTH_DISCOVERY_OWNER) when connected, else the default owner (`npm start`'s user), else whoever connected
// most recently. Listing tools reveals only their names and schemas, which every owner sees anyway.
import { extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthEntry } from '../../endpoint-registry';
import { DEFAULT_OWNER, type OAuthStore } from './oauth-settings';
import { GrantProvider, NeedsConnecting } from './provider';

export class OAuthAccess {
  constructor(
    private readonly tokens: OAuthStore,
    private readonly discoveryOwnerSetting?: string,
    /** Told each token handed to a transport, so the worker scrubs it from anything it hands out. */
    private readonly onSecrets?: (values: string[]) => void,
  ) {}

  /** Throws NeedsConnecting unless the owner holds a grant (or, with no store, says MCP_TOKEN_KEY is missing). */
  check(endpoint: string, owner: string): void {
    if (!this.tokens.store) throw new NeedsConnecting(endpoint, this.tokens.error);
    if (!this.tokens.store.hasGrant(endpoint, owner)) throw new NeedsConnecting(endpoint);
  }

  /** What the transport presents for this owner; refreshes write back to the shared store. */
  provider(endpoint: string, owner: string, serverUrl: string, auth: OAuthEntry): OAuthClientProvider {
    this.check(endpoint, owner);
    return new GrantProvider(this.tokens.store!, endpoint, owner, serverUrl, auth, this.onSecrets);
  }

  /**
   * The transport's fetch for this owner's session: a `403 insufficient_scope` from the server (a tool that needs
   * more than the user allowed) is the user's to grant, so the call stops there with NeedsConnecting, and the scope
   * asked for is kept with the grant for the next connect. (The SDK would refresh the same scope and fail again.)
   */
  fetchFor(endpoint: string, owner: string, serverUrl: string): FetchLike {
    return async (input, init) => {
      const res = await fetch(input, init);
      if (res.status !== 403 || String(input) !== serverUrl) return res;
      const { error, scope } = extractWWWAuthenticateParams(res);
      if (error !== 'insufficient_scope') return res;
      const grant = this.tokens.store?.readGrant(endpoint, owner);
      if (grant && scope) this.tokens.store!.saveGrant({ ...grant, wantedScope: scope });
      throw new NeedsConnecting(endpoint, undefined, scope ?? 'a wider scope');
    };
  }

  /** The owner whose grant lists the endpoint's tools, or why there is none. */
  discoveryOwner(endpoint: string): { owner: string } | { why: string } {
    if (!this.tokens.store) return { why: this.tokens.error };
    const store = this.tokens.store;
    for (const preferred of [this.discoveryOwnerSetting, DEFAULT_OWNER]) {
      if (preferred && store.hasGrant(endpoint, preferred)) return { owner: preferred };
    }
    const newest = store.grantOwners(endpoint)[0];
    return newest ? { owner: newest } : { why: 'nobody has connected it yet' };
  }

  /** Changes when an owner connects or a grant is dropped: the catalog lists OAuth endpoints again then. */
  stamp(): string {
    return this.tokens.store?.stamp() ?? 'no store';
  }
}
