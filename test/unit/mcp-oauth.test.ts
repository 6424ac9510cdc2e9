// The worker's side of OAuth without a network: the provider over a stored grant (no grant: needs connecting, before
// anything could register a client; a refused refresh forgets the grant; a refresh keeps the old refresh token when
// the server sends none), the callback's refusals, which owner discovery borrows, an owner's view of the endpoint
// list, and the registry's auth field.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EndpointStatus } from '../../core/types';
import { parseRegistry } from '../../endpoints/endpoint-registry';
import { ConnectError, finishConnect } from '../../endpoints/mcp/oauth/connect-flow';
import { OAuthAccess } from '../../endpoints/mcp/oauth/oauth-access';
import { endpointsForOwner } from '../../endpoints/mcp/oauth/oauth-endpoints';
import { NO_KEY, tokenFolder } from '../../endpoints/mcp/oauth/oauth-settings';
import { GrantProvider, NeedsConnecting } from '../../endpoints/mcp/oauth/provider';
import { TokenStore, type Grant } from '../../endpoints/mcp/oauth/token-store';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

const SERVER = 'https://mcp.example.com/mcp';
const AUTH = { type: 'oauth' as const };

function freshStore(): TokenStore {
  return new TokenStore(tokenFolder(mkdtempSync(path.join(tmpdir(), 'mcp-oauth-'))), randomBytes(32));
}

function grant(owner: string, savedAt = new Date().toISOString()): Grant {
  return {
    endpoint: 'docs',
    owner,
    serverUrl: SERVER,
    tokens: { access_token: `a-${owner}`, refresh_token: `r-${owner}`, token_type: 'Bearer' },
    client: { client_id: 'dyn-1' },
    redirectUri: 'http://127.0.0.1:8080/api/oauth/callback',
    savedAt,
  };
}

describe('GrantProvider', () => {
  it('refuses before the SDK could register a client when the owner has no grant', () => {
    const provider = new GrantProvider(freshStore(), 'docs', 'ada', SERVER, AUTH);
    expect(provider.tokens()).toBeUndefined();
    expect(() => provider.clientInformation()).toThrow(NeedsConnecting);
    expect(() => provider.redirectToAuthorization()).toThrow(/needs connecting: run `agent endpoints connect docs`/);
  });

  it("presents the owner's tokens and client, and nobody else's", () => {
    const store = freshStore();
    store.saveGrant(grant('ada'), true);
    const seen: string[] = [];
    const ada = new GrantProvider(store, 'docs', 'ada', SERVER, AUTH, (values) => seen.push(...values));
    expect(ada.tokens()?.access_token).toBe('a-ada');
    expect(ada.clientInformation()).toEqual({ client_id: 'dyn-1' });
    expect(seen).toEqual(['a-ada', 'r-ada']);
    expect(new GrantProvider(store, 'docs', 'bob', SERVER, AUTH).tokens()).toBeUndefined();
    // A grant obtained for another server URL (the entry was edited) is not presented to this one.
    expect(new GrantProvider(store, 'docs', 'ada', 'https://other.example.com/mcp', AUTH).tokens()).toBeUndefined();
  });

  it('writes a refresh back at once, keeping the refresh token when the server sends none', () => {
    const store = freshStore();
    store.saveGrant(grant('ada'), true);
    new GrantProvider(store, 'docs', 'ada', SERVER, AUTH).saveTokens({ access_token: 'a-2', token_type: 'Bearer' });
    expect(store.readGrant('docs', 'ada')?.tokens).toEqual({
      access_token: 'a-2',
      refresh_token: 'r-ada',
      token_type: 'Bearer',
    });
  });

  it('forgets the grant when the server refuses it, so the owner is back to connecting', () => {
    const store = freshStore();
    store.saveGrant(grant('ada'), true);
    const provider = new GrantProvider(store, 'docs', 'ada', SERVER, AUTH);
    provider.tokens(); // the SDK reads the tokens, presents the refresh token, and is refused
    provider.invalidateCredentials('tokens');
    expect(store.hasGrant('docs', 'ada')).toBe(false);
  });

  it('presents a pre-registered client with its secret over what was stored', () => {
    const store = freshStore();
    store.saveGrant(grant('ada'), true);
    const provider = new GrantProvider(store, 'docs', 'ada', SERVER, {
      ...AUTH,
      clientId: 'agent-prod',
      clientSecret: 's3cret',
    });
    expect(provider.clientInformation()).toEqual({ client_id: 'agent-prod', client_secret: 's3cret' });
    expect(provider.clientMetadata.token_endpoint_auth_method).toBe('client_secret_basic');
  });
});

describe('the OAuth callback', () => {
  const target = () => ({ endpoint: 'docs', serverUrl: SERVER, auth: AUTH });
  const pending = (expiresAt: number) => ({
    endpoint: 'docs',
    owner: 'ada',
    serverUrl: SERVER,
    codeVerifier: 'v',
    redirectUri: 'http://127.0.0.1/cb',
    client: { client_id: 'dyn-1' },
    expiresAt,
  });

  it('refuses an unknown state, an expired one, a refusal by the authorization server and a changed entry', async () => {
    const store = freshStore();
    await expect(finishConnect(store, { state: 'nope', code: 'c' }, target)).rejects.toThrow(
      /unknown or was already used/,
    );
    store.savePending('old', pending(Date.now() - 1));
    await expect(finishConnect(store, { state: 'old', code: 'c' }, target)).rejects.toThrow(/expired/);
    store.savePending('denied', pending(Date.now() + 60_000));
    const denied = { state: 'denied', error: 'access_denied', errorDescription: 'the user said no' };
    await expect(finishConnect(store, denied, target)).rejects.toThrow(
      'the authorization server refused (access_denied: the user said no)',
    );
    store.savePending('moved', pending(Date.now() + 60_000));
    const moved = () => ({ ...target(), serverUrl: 'https://moved.example.com/mcp' });
    await expect(finishConnect(store, { state: 'moved', code: 'c' }, moved)).rejects.toBeInstanceOf(ConnectError);
    // Each state was used up by its one attempt.
    for (const state of ['old', 'denied', 'moved']) expect(store.takePending(state)).toBeUndefined();
    expect(store.hasGrant('docs', 'ada')).toBe(false);
  });
});

describe('OAuthAccess', () => {
  it('lists tools with the configured owner, else the default one, else whoever connected last', () => {
    const store = freshStore();
    const access = (preferred?: string) => new OAuthAccess({ folder: store.folder, store }, preferred);
    expect(access().discoveryOwner('docs')).toEqual({ why: 'nobody has connected it yet' });
    store.saveGrant(grant('ada', daysAgo(60)), true);
    store.saveGrant(grant('grace', daysAgo(30)), true);
    expect(access().discoveryOwner('docs')).toEqual({ owner: 'grace' });
    store.saveGrant(grant('local'), true);
    expect(access().discoveryOwner('docs')).toEqual({ owner: 'local' });
    expect(access('ada').discoveryOwner('docs')).toEqual({ owner: 'ada' });
    expect(access('bob').discoveryOwner('docs')).toEqual({ owner: 'local' });
  });

  it('says what is missing when the worker has no key', () => {
    const access = new OAuthAccess({ folder: '/nowhere', error: NO_KEY });
    expect(() => access.check('docs', 'ada')).toThrow(/cannot be used: MCP_TOKEN_KEY is not set/);
    expect(access.discoveryOwner('docs')).toEqual({ why: NO_KEY });
  });
});

describe("an owner's view of the endpoints", () => {
  const endpoints: EndpointStatus[] = [
    { name: 'docs', status: 'ok', toolCount: 2, transport: 'http', categories: [] },
    { name: 'fx', status: 'ok', toolCount: 3, transport: 'stdio', categories: [] },
  ];

  it('says needs connecting for an OAuth endpoint this owner has not connected, and nothing else changes', () => {
    const store = freshStore();
    store.saveGrant(grant('ada'), true);
    const view = (owner: string, tokens = { folder: store.folder, store }) =>
      endpointsForOwner(endpoints, new Set(['docs']), tokens, owner);
    expect(view('ada')[0]).toMatchObject({ status: 'ok', auth: 'oauth' });
    expect(view('bob')[0]).toMatchObject({ status: 'needs_connecting', auth: 'oauth' });
    expect(view('bob')[1]).toEqual(endpoints[1]);
    // Without the key (the CLI), a grant is still seen by its file; a missing one says what to set.
    const keyless = { folder: store.folder, error: NO_KEY };
    expect(endpointsForOwner(endpoints, new Set(['docs']), keyless, 'ada')[0]!.status).toBe('ok');
    expect(endpointsForOwner(endpoints, new Set(['docs']), keyless, 'bob')[0]).toMatchObject({
      status: 'needs_connecting',
      error: NO_KEY,
    });
  });
});

describe('the registry auth field', () => {
  it('takes oauth with an optional client and scopes, and names a wrong field', () => {
    const entry = { url: SERVER, auth: { type: 'oauth', clientId: 'c', clientSecret: '${env:S}', scopes: ['a'] } };
    expect(parseRegistry(JSON.stringify({ mcpServers: { docs: entry } })).endpoints.docs).toMatchObject(entry);
    const wrong = { url: SERVER, auth: { type: 'oauth', client: 'c' } };
    expect(() => parseRegistry(JSON.stringify({ mcpServers: { docs: wrong } }))).toThrow(/server "docs": auth/);
    const stdio = { command: 'x', auth: { type: 'oauth' } };
    expect(() => parseRegistry(JSON.stringify({ mcpServers: { local: stdio } }))).toThrow(/server "local"/);
  });
});

describe('two refreshes at once', () => {
  it('keeps the grant when the refused refresh token is older than the one another session saved', () => {
    const store = freshStore();
    store.saveGrant(grant('ada'), true);
    const slow = new GrantProvider(store, 'docs', 'ada', SERVER, AUTH);
    const fast = new GrantProvider(store, 'docs', 'ada', SERVER, AUTH);
    expect(slow.tokens()?.refresh_token).toBe('r-ada');
    expect(fast.tokens()?.refresh_token).toBe('r-ada');
    // The fast one's refresh rotated the token; the server then refuses the slow one's (the old one).
    fast.saveTokens({ access_token: 'a-2', refresh_token: 'r-2', token_type: 'Bearer' });
    slow.invalidateCredentials('tokens');
    expect(store.readGrant('docs', 'ada')?.tokens.refresh_token).toBe('r-2');
    // Its retry presents the newest, and a refusal of that one is final.
    expect(slow.tokens()?.refresh_token).toBe('r-2');
    slow.invalidateCredentials('tokens');
    expect(store.hasGrant('docs', 'ada')).toBe(false);
  });
});
