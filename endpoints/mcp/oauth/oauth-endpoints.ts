// The registry's OAuth endpoints as a process other than the worker sees them (the API, the CLI): which entries need
// OAuth, each one resolved for connecting (its `${env:…}` references filled from this process's environment), and the
// worker's endpoint list turned into one owner's view — an OAuth endpoint this owner has no grant for "needs
// connecting", whatever the worker-wide catalog says.
import type { EndpointStatus } from '../../../core/types';
import { oauthOf, resolveEndpoint, type RegistryFile } from '../../endpoint-registry';
import type { OAuthTarget } from './connect-flow';
import type { OAuthStore } from './oauth-settings';
import { TokenStore } from './token-store';

/** Why an endpoint cannot be connected: `not_found` (no such entry), `invalid` (not an OAuth endpoint, a variable
 * missing). */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly kind: 'not_found' | 'invalid',
  ) {
    super(message);
  }
}

export class OAuthEndpoints {
  constructor(
    private readonly registry: RegistryFile,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** The names of the entries that need OAuth (enabled or not). */
  names(): Set<string> {
    const { endpoints } = this.registry.read().registry;
    return new Set(Object.keys(endpoints).filter((name) => oauthOf(endpoints[name]!)));
  }

  /** The endpoint as connecting it needs it, or why it cannot be connected. */
  target(name: string): OAuthTarget {
    const entry = this.registry.read().registry.endpoints[name];
    if (!entry) throw new TargetError(`No MCP endpoint named "${name}" in the registry.`, 'not_found');
    if (!oauthOf(entry))
      throw new TargetError(`The MCP endpoint "${name}" does not use OAuth (no "auth" field).`, 'invalid');
    if (!entry.enabled) throw new TargetError(`The MCP endpoint "${name}" is disabled in the registry.`, 'invalid');
    let resolved;
    try {
      resolved = resolveEndpoint(name, entry, this.env).resolved;
    } catch (err) {
      throw new TargetError(`The MCP endpoint "${name}": ${(err as Error).message}.`, 'invalid');
    }
    return { endpoint: name, serverUrl: (resolved as { url: string }).url, auth: oauthOf(resolved)! };
  }
}

/**
 * The worker's endpoints as this owner has them: an OAuth endpoint without the owner's grant needs connecting (with
 * no store, that is said too). Whether a grant exists is a file's presence: no key is needed to answer.
 */
export function endpointsForOwner(
  endpoints: EndpointStatus[],
  oauth: Set<string>,
  tokens: OAuthStore,
  owner: string,
): EndpointStatus[] {
  return endpoints.map((e): EndpointStatus => {
    if (!oauth.has(e.name) || e.status === 'disabled') return e;
    const marked = { ...e, auth: 'oauth' as const };
    // Without the key here (the CLI), a grant the worker can read is still seen: its file is there.
    if (TokenStore.grantExists(tokens.folder, e.name, owner)) return marked;
    return { ...marked, status: 'needs_connecting', error: tokens.store ? undefined : tokens.error };
  });
}
