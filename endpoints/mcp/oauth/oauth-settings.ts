// The OAuth token store's setting, read at each process edge (worker, API, CLI) the same way: MCP_TOKEN_KEY, 32
// bytes in base64 or hex, and the folder under the data dir they share. Without the key, OAuth endpoints say so
// rather than keep tokens in the clear.
import path from 'node:path';
import { TokenStore } from './token-store';

/** Conversations (and API callers) with no owner share this one: `npm start` on one machine, API without keys. */
export const DEFAULT_OWNER = 'local';

/** The owner tokens are kept under: the conversation's, else the default. */
export function ownerOrDefault(owner: string | null | undefined): string {
  return owner || DEFAULT_OWNER;
}

/** The store, or why there is none (said to whoever tries to connect or call an OAuth endpoint); its folder either way,
 * where a grant's presence can be seen without the key. */
export type OAuthStore = { folder: string } & (
  { store: TokenStore; error?: undefined } | { store?: undefined; error: string }
);

export const NO_KEY =
  'MCP_TOKEN_KEY is not set, so OAuth tokens cannot be kept: set it to 32 random bytes (openssl rand -base64 32) in the worker and the API';

/** The folder of the store under a data dir (DATA_DIR): the API and the worker must name the same one. */
export function tokenFolder(dataDir: string): string {
  return path.join(dataDir, 'mcp-oauth');
}

/** MCP_TOKEN_KEY: 32 bytes as 64 hex digits or as base64; anything else is refused, naming the variable. */
export function parseTokenKey(value: string): Buffer {
  const v = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64');
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(v) && !/^[A-Za-z0-9+/_-]+={0,2}$/.test(v))) {
    throw new Error(
      `MCP_TOKEN_KEY must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32); it decodes to ${key.length}`,
    );
  }
  return key;
}

/** The store of this data dir, or the reason there is none. A malformed key throws (a configuration error). */
export function openTokenStore(dataDir: string, keyValue: string | undefined): OAuthStore {
  const folder = tokenFolder(dataDir);
  if (!keyValue?.trim()) return { folder, error: NO_KEY };
  return { folder, store: new TokenStore(folder, parseTokenKey(keyValue)) };
}
