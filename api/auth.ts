// Who is calling: with API_KEYS set, every /api route needs `Authorization: Bearer <key>`. A key belongs to an
// owner; conversations started with it record that owner, and the key sees only its owner's conversations. Admin
// keys see all. Keys are compared in constant time and never stored or logged; owners without a name get one
// derived from the key's hash.
import { createHash, timingSafeEqual } from 'node:crypto';

export interface Caller {
  /** Recorded as the conversation's owner (AgentOwner); null when the API runs without keys. */
  owner: string | null;
  /** Sees and acts on every conversation. */
  admin: boolean;
}

/** The caller when the API runs without keys (bound to 127.0.0.1): this machine's user, who sees everything. */
export const LOCAL_CALLER: Caller = { owner: null, admin: true };

/** What a request carries through the API's middleware: who is calling. */
export type ApiEnv = { Variables: { caller: Caller } };

interface Key {
  digest: Buffer;
  caller: Caller;
}

const OWNER = /^[\w.@:+-]{1,100}$/;

export class ApiKeys {
  private readonly keys: Key[];

  constructor(users: string[], admins: string[]) {
    this.keys = [...users.map((e) => parse(e, false)), ...admins.map((e) => parse(e, true))];
  }

  /** The caller a bearer key stands for, or null for a missing or unknown key. */
  callerOf(authorization: string | undefined): Caller | null {
    const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!key) return null;
    const digest = sha256(key);
    // Every key is compared, so the time taken does not tell which (or whether one) matched.
    let found: Caller | null = null;
    for (const k of this.keys) if (timingSafeEqual(k.digest, digest)) found = k.caller;
    return found;
  }

  get size(): number {
    return this.keys.length;
  }
}

function parse(entry: string, admin: boolean): Key {
  const eq = entry.indexOf('=');
  const named = eq > 0 ? entry.slice(0, eq).trim() : null;
  const key = eq > 0 ? entry.slice(eq + 1).trim() : entry;
  if (named !== null && !OWNER.test(named)) {
    throw new Error(
      `API_KEYS: the owner "${named}" may hold letters, digits and . @ : + - _ only (entries are owner=key).`,
    );
  }
  if (key.length < 16)
    throw new Error(
      `API_KEYS: the key of ${named ?? 'an entry'} is shorter than 16 characters; use a long random key.`,
    );
  const digest = sha256(key);
  return { digest, caller: { owner: named ?? `key-${digest.toString('hex').slice(0, 12)}`, admin } };
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
