// The encrypted OAuth token store shared by the API and the worker: nothing readable on disk, nothing readable with
// another key, an altered or moved file refused, a pending authorization good for one callback only.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TokenStore, TokenStoreError, type Grant } from '../../endpoints/mcp/oauth/token-store';
import { openTokenStore, parseTokenKey, NO_KEY } from '../../endpoints/mcp/oauth/oauth-settings';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

const ACCESS = 'access-token-5f2a9c-do-not-leak';
const REFRESH = 'refresh-token-8d1e77-do-not-leak';

function grant(owner: string): Grant {
  return {
    endpoint: 'docs',
    owner,
    serverUrl: 'https://mcp.example.com/mcp',
    tokens: { access_token: ACCESS, refresh_token: REFRESH, token_type: 'Bearer', expires_in: 60 },
    client: { client_id: 'agent' },
    redirectUri: 'http://127.0.0.1:8080/api/oauth/callback',
    savedAt: new Date().toISOString(),
  };
}

/** Every file under the folder, as text. */
function allText(folder: string): string {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((d) => d.isFile());
  return files.map((f) => readFileSync(path.join(f.parentPath, f.name), 'utf8')).join('\n');
}

describe('TokenStore', () => {
  let folder: string;
  let key: Buffer;
  let store: TokenStore;

  beforeEach(() => {
    folder = path.join(mkdtempSync(path.join(tmpdir(), 'token-store-')), 'mcp-oauth');
    key = randomBytes(32);
    store = new TokenStore(folder, key);
  });

  it('keeps a grant per owner and endpoint, encrypted: no token, owner or URL is readable on disk', () => {
    store.saveGrant(grant('ada@example.com'), true);
    expect(store.readGrant('docs', 'ada@example.com')?.tokens.access_token).toBe(ACCESS);
    expect(store.hasGrant('docs', 'ada@example.com')).toBe(true);
    expect(store.hasGrant('docs', 'grace@example.com')).toBe(false);
    expect(store.readGrant('docs', 'grace@example.com')).toBeUndefined();
    const disk = allText(folder);
    for (const plain of [ACCESS, REFRESH, 'ada@example.com', 'mcp.example.com', 'client_id'])
      expect(disk).not.toContain(plain);
  });

  it('refuses to decrypt with another key, saying which setting is wrong', () => {
    store.saveGrant(grant('ada'), true);
    const other = new TokenStore(folder, randomBytes(32));
    expect(() => other.readGrant('docs', 'ada')).toThrow(TokenStoreError);
    expect(() => other.readGrant('docs', 'ada')).toThrow(/MCP_TOKEN_KEY is not the key it was written with/);
    // Presence needs no key: "needs connecting" can be told without decrypting.
    expect(other.hasGrant('docs', 'ada')).toBe(true);
    // An owner whose grant cannot be read is not offered for discovery.
    expect(other.grantOwners('docs')).toEqual([]);
  });

  it('refuses a file altered by one byte', () => {
    store.saveGrant(grant('ada'), true);
    const dir = path.join(folder, 'grants', 'docs');
    const file = path.join(dir, readdirSync(dir)[0]!);
    const box = JSON.parse(readFileSync(file, 'utf8')) as { data: string };
    const data = Buffer.from(box.data, 'base64');
    data[5] = data[5]! ^ 1;
    writeFileSync(file, JSON.stringify({ ...box, data: data.toString('base64') }));
    expect(() => store.readGrant('docs', 'ada')).toThrow(/cannot be decrypted/);
  });

  it("refuses one owner's file moved into another owner's place (the path is authenticated)", () => {
    store.saveGrant(grant('mallory'), true);
    store.saveGrant(grant('ada'), true);
    const dir = path.join(folder, 'grants', 'docs');
    const [a, b] = readdirSync(dir);
    renameSync(path.join(dir, a!), path.join(dir, b!));
    const moved = [store, store].map((s, i) => {
      try {
        return s.readGrant('docs', i === 0 ? 'ada' : 'mallory');
      } catch (err) {
        return err;
      }
    });
    expect(moved.some((r) => r instanceof TokenStoreError)).toBe(true);
    expect(moved.some((r) => (r as Grant | undefined)?.owner === 'mallory')).toBe(false);
  });

  it('lists the owners holding a grant, newest first, and forgets a deleted one', () => {
    store.saveGrant({ ...grant('ada'), savedAt: daysAgo(60) }, true);
    store.saveGrant({ ...grant('grace'), savedAt: daysAgo(30) }, true);
    expect(store.grantOwners('docs')).toEqual(['grace', 'ada']);
    const before = store.stamp();
    store.deleteGrant('docs', 'grace');
    expect(store.grantOwners('docs')).toEqual(['ada']);
    expect(store.hasGrant('docs', 'grace')).toBe(false);
    expect(store.stamp()).not.toBe(before);
  });

  it('hands a pending authorization to one callback only', () => {
    const pending = {
      endpoint: 'docs',
      owner: 'ada',
      serverUrl: 'https://mcp.example.com/mcp',
      codeVerifier: 'verifier-kept-server-side',
      redirectUri: 'http://127.0.0.1/cb',
      client: { client_id: 'agent' },
      expiresAt: Date.now() + 60_000,
    };
    store.savePending('state-1', pending);
    expect(allText(folder)).not.toContain('verifier-kept-server-side');
    expect(store.takePending('state-2')).toBeUndefined();
    expect(store.takePending('state-1')).toEqual(pending);
    expect(store.takePending('state-1')).toBeUndefined();
  });

  it('keeps a dynamic registration per endpoint and redirect URI', () => {
    store.saveClient('docs', 'http://a/cb', { client_id: 'dyn-1', client_secret: 'dyn-secret' });
    expect(store.readClient('docs', 'http://a/cb')?.client_id).toBe('dyn-1');
    expect(store.readClient('docs', 'http://b/cb')).toBeUndefined();
    expect(allText(folder)).not.toContain('dyn-secret');
  });

  it('writes files only its user can read', () => {
    store.saveGrant(grant('ada'), true);
    const dir = path.join(folder, 'grants', 'docs');
    expect(statSync(path.join(dir, readdirSync(dir)[0]!)).mode & 0o077).toBe(0);
  });
});

describe('MCP_TOKEN_KEY', () => {
  it('takes 32 bytes as hex or base64 and refuses anything else, naming the setting', () => {
    const bytes = randomBytes(32);
    expect(parseTokenKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseTokenKey(bytes.toString('base64'))).toEqual(bytes);
    expect(() => parseTokenKey('too-short')).toThrow(/MCP_TOKEN_KEY must be 32 bytes/);
    expect(() => parseTokenKey(randomBytes(16).toString('base64'))).toThrow(/decodes to 16/);
  });

  it('without it there is no store, and the reason says what to set', () => {
    expect(openTokenStore('/tmp', undefined)).toEqual({ folder: '/tmp/mcp-oauth', error: NO_KEY });
    expect(NO_KEY).toMatch(/MCP_TOKEN_KEY is not set/);
  });
});
