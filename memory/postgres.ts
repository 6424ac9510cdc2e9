// The memory store in a PostgreSQL server (DATABASE_URL): for several workers that share their owners' memories, each
// with a pool of its own. The same SQL and migrations as PGlite's (memory/migrations.ts); a second process opening
// the store at the same moment waits on the migrations' lock, then finds them done. A database the URL names that does
// not exist yet is made (a server whose data predates it, as compose's after an upgrade), when the user may.
import { Client, Pool, types, type PoolClient } from 'pg';
import type { Sql } from './migrations';

// bigint (count(*) without a cast) as a number: no count here comes near 2^53. For this pool only.
const parsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === types.builtins.INT8
      ? (v: string) => Number(v)
      : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

export class PostgresSql implements Sql {
  private readonly pool: Pool;

  constructor(url: string, max = 4) {
    this.pool = new Pool({ connectionString: url, max, application_name: 'agent-memory', types: parsers });
    // An idle connection the server dropped (a restart): the pool makes a new one for the next query.
    this.pool.on('error', () => undefined);
  }

  async query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }> {
    return { rows: (await this.pool.query(text, params)).rows as T[] };
  }

  exec(text: string): Promise<unknown> {
    return this.pool.query(text);
  }

  async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const out = await work(onClient(client));
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** A pool on `url`, its database made first when the server has none of that name. */
export async function openPostgres(url: string): Promise<PostgresSql> {
  const sql = new PostgresSql(url);
  try {
    await sql.query('SELECT 1');
    return sql;
  } catch (err) {
    await sql.close();
    if ((err as { code?: string }).code !== UNKNOWN_DATABASE) throw err;
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const server = new URL(url);
  server.pathname = '/postgres';
  const admin = new Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    // Workers starting together: one makes it (two CREATE DATABASE at once collide in the catalog), the rest find it.
    await admin.query('SELECT pg_advisory_lock($1)', [CREATING_LOCK]);
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  return new PostgresSql(url);
}

/** SQLSTATE invalid_catalog_name. */
const UNKNOWN_DATABASE = '3D000';
/** An arbitrary constant: the lock a process holds while it makes the database (ended with its session). */
const CREATING_LOCK = 41_043;

function onClient(client: PoolClient): Sql {
  return {
    query: async <R>(text: string, params?: unknown[]) => ({ rows: (await client.query(text, params)).rows as R[] }),
    exec: (text) => client.query(text),
    transaction: () => Promise.reject(new Error('no transaction within a transaction')),
  };
}

/** The URL without its password, for logs and errors. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL (not a URL)';
  }
}
