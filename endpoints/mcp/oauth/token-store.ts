// What OAuth leaves behind for remote MCP servers — each owner's grant (tokens, the client that obtained them, the
// discovered servers), dynamic registrations, and authorizations under way — kept in one folder, every file
// encrypted with AES-256-GCM. The folder is the contract between processes: the API (or the CLI) writes a grant when
// a user connects, the worker reads it to call and rewrites it when it refreshes, so they may be separate processes
// sharing a volume. Each file's path is its additional authenticated data: a file copied under another owner's or
// endpoint's name does not decrypt.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** One owner's standing authorization for one endpoint: everything a refresh needs, and nothing the workflow sees. */
export interface Grant {
  endpoint: string;
  owner: string;
  /** The MCP server's URL the grant was obtained for: a grant is used only for the same server. */
  serverUrl: string;
  tokens: OAuthTokens;
  /** The client that obtained the tokens (a refresh must present the same one). */
  client: OAuthClientInformationMixed;
  redirectUri: string;
  discovery?: OAuthDiscoveryState;
  /** A scope the server asked for beyond the grant's (403 insufficient_scope): connecting again asks for it too. */
  wantedScope?: string;
  /** ISO time of the last save: a connect or a refresh. */
  savedAt: string;
}

/** An authorization sent to the user and not yet answered: found by its `state`, used once. */
export interface PendingAuthorization {
  endpoint: string;
  owner: string;
  serverUrl: string;
  codeVerifier: string;
  redirectUri: string;
  client: OAuthClientInformationMixed;
  discovery?: OAuthDiscoveryState;
  /** Epoch ms after which the callback is refused. */
  expiresAt: number;
}

/** A file of the store that exists but does not decrypt or parse: a wrong key, or an altered file. */
export class TokenStoreError extends Error {}

const VERSION = 1;

export class TokenStore {
  constructor(
    readonly folder: string,
    private readonly key: Buffer,
  ) {
    if (key.length !== 32) throw new Error('the token key must be 32 bytes (AES-256)');
  }

  // ---- grants: grants/<endpoint>/<owner digest>.json ------------------------------------------------------------

  readGrant(endpoint: string, owner: string): Grant | undefined {
    return this.read<Grant>(this.grantPath(endpoint, owner));
  }

  /** Whether the owner holds a grant, without decrypting it (the key is not needed to say "needs connecting"). */
  hasGrant(endpoint: string, owner: string): boolean {
    return TokenStore.grantExists(this.folder, endpoint, owner);
  }

  /** The same, for a process without the key (the CLI listing endpoints for a worker that has it). */
  static grantExists(folder: string, endpoint: string, owner: string): boolean {
    return existsSync(path.join(folder, grantPath(endpoint, owner)));
  }

  saveGrant(grant: Grant, isNew = false): void {
    this.write(this.grantPath(grant.endpoint, grant.owner), grant);
    if (isNew) this.touch();
  }

  deleteGrant(endpoint: string, owner: string): void {
    rmSync(path.join(this.folder, this.grantPath(endpoint, owner)), { force: true });
    this.touch();
  }

  /** The owners holding a grant for the endpoint, most recently saved first. */
  grantOwners(endpoint: string): string[] {
    const dir = path.join(this.folder, 'grants', endpoint);
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const owners: { owner: string; at: number }[] = [];
    for (const name of names) {
      try {
        const grant = this.read<Grant>(path.join('grants', endpoint, name));
        if (grant) owners.push({ owner: grant.owner, at: Date.parse(grant.savedAt) });
      } catch {
        // Undecryptable: not an owner anyone can use.
      }
    }
    return owners.sort((a, b) => b.at - a.at).map((o) => o.owner);
  }

  /** Changes when a grant is added or removed (not on a refresh): the catalog re-lists OAuth endpoints then. */
  stamp(): string {
    try {
      return String(statSync(path.join(this.folder, 'connections.stamp')).mtimeMs);
    } catch {
      return 'none';
    }
  }

  // ---- dynamic registrations: clients/<endpoint>-<digest of issuer and redirect URI>.json ---------------------

  readClient(endpoint: string, redirectUri: string): OAuthClientInformationMixed | undefined {
    return this.read(this.clientPath(endpoint, redirectUri));
  }

  saveClient(endpoint: string, redirectUri: string, client: OAuthClientInformationMixed): void {
    this.write(this.clientPath(endpoint, redirectUri), client);
  }

  deleteClient(endpoint: string, redirectUri: string): void {
    rmSync(path.join(this.folder, this.clientPath(endpoint, redirectUri)), { force: true });
  }

  // ---- authorizations under way: pending/<state digest>.json --------------------------------------------------

  savePending(state: string, pending: PendingAuthorization): void {
    this.write(this.pendingPath(state), pending);
  }

  /**
   * The authorization of this state, removed as it is read: a second callback with the same state finds nothing.
   * Claimed by a rename first, so two processes racing for one state cannot both have it.
   */
  takePending(state: string): PendingAuthorization | undefined {
    const file = this.pendingPath(state);
    const claimed = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.taken`;
    try {
      renameSync(path.join(this.folder, file), path.join(this.folder, claimed));
    } catch {
      return undefined;
    }
    try {
      const raw = readFileSync(path.join(this.folder, claimed), 'utf8');
      return this.open<PendingAuthorization>(file, raw);
    } finally {
      rmSync(path.join(this.folder, claimed), { force: true });
    }
  }

  // ---- the files ------------------------------------------------------------------------------------------------

  private grantPath(endpoint: string, owner: string): string {
    return grantPath(endpoint, owner);
  }

  private clientPath(endpoint: string, redirectUri: string): string {
    return path.join('clients', `${safe(endpoint)}-${digest(redirectUri)}.json`);
  }

  private pendingPath(state: string): string {
    return path.join('pending', `${digest(state)}.json`);
  }

  private read<T>(relative: string): T | undefined {
    let raw: string;
    try {
      raw = readFileSync(path.join(this.folder, relative), 'utf8');
    } catch {
      return undefined;
    }
    return this.open<T>(relative, raw);
  }

  private open<T>(relative: string, raw: string): T {
    try {
      const box = JSON.parse(raw) as { v: number; iv: string; tag: string; data: string };
      if (box.v !== VERSION) throw new Error(`unknown format ${box.v}`);
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(box.iv, 'base64'));
      decipher.setAAD(Buffer.from(aad(relative)));
      decipher.setAuthTag(Buffer.from(box.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(box.data, 'base64')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as T;
    } catch {
      throw new TokenStoreError(
        `the stored OAuth file ${relative} cannot be decrypted: MCP_TOKEN_KEY is not the key it was written with, or the file was altered`,
      );
    }
  }

  /** Written to a temporary file and renamed, so a reader in another process never sees half a file. */
  private write(relative: string, value: unknown): void {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad(relative)));
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    const box = { v: VERSION, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: '' };
    box.data = data.toString('base64');
    const file = path.join(this.folder, relative);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, JSON.stringify(box), { mode: 0o600 });
    renameSync(temp, file);
  }

  private touch(): void {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(this.folder, 'connections.stamp'), new Date().toISOString(), { mode: 0o600 });
  }
}

function grantPath(endpoint: string, owner: string): string {
  return path.join('grants', safe(endpoint), `${digest(owner)}.json`);
}

/** The path with forward slashes, so a store moved between systems still opens. */
function aad(relative: string): string {
  return `mcp-oauth:${relative.split(path.sep).join('/')}`;
}

/** Owners and states may hold any character: files are named by a digest, never by the value. */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

/** Endpoint names are already [A-Za-z0-9_-] (the registry checks); this keeps a bad one out of other folders. */
function safe(endpoint: string): string {
  return endpoint.replace(/[^A-Za-z0-9_-]/g, '_');
}
