// HTTP APIs of the registry, as the catalog lists them: each entry's document loaded (again when its text changes),
// its operations made tools, its secrets resolved in the worker. A document that breaks or cannot be fetched keeps
// the last good one serving, and says why; an API never loaded is unavailable, with the reason.
import { createHash } from 'node:crypto';
import type { EndpointStatus, ToolSpec } from '../../core/types';
import { envResolver } from '../env-refs';
import { mcpToolName } from '../tool-names';
import { isDocumentApi, type ApiEntry } from './api-entry';
import { baseUrlOf, fetchDocument, parseDocument } from './api-document';
import { operationsOf, type ApiOperation, type HttpMethod } from './operations';

/** Everything a call needs, kept in the worker: the resolved entry (secrets in it) never reaches the workflow. */
export interface ApiCall {
  api: string;
  baseUrl: string;
  operation: ApiOperation;
  headers: Record<string, string>;
  auth?: ApiEntry['auth'];
  timeoutMs: number;
  /** A lost attempt is sent again: a read, or any call of an API that honours idempotency keys (`idempotencyKeys`). */
  retried: boolean;
}

export interface ListedApi {
  status: EndpointStatus;
  /** Each operation with what calling it takes; named as tools by the catalog (apiToolSpec), in a fixed order. */
  calls: ApiCall[];
}

export interface ApiCatalogOptions {
  baseDir: string;
  maxDocumentBytes: number;
  env?: NodeJS.ProcessEnv;
  onSecrets?: (values: string[]) => void;
}

interface Good {
  hash: string;
  operations: ApiOperation[];
  baseUrl: string;
  at: string;
}

/** A document URL that failed is tried again after this, doubling per failure up to five minutes: no turn waits on a
 * hanging document URL more than once in a while. */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 5 * 60_000;
/** A document fetch gives up after this (or the entry's timeout, if shorter): discovery runs before a turn. */
const FETCH_TIMEOUT_MS = 15_000;

export class ApiCatalog {
  private readonly lastGood = new Map<string, Good>();
  private readonly failing = new Map<string, { key: string; error: string; failures: number; retryAt: number }>();

  constructor(private readonly opts: ApiCatalogOptions) {}

  async list(name: string, entry: ApiEntry): Promise<ListedApi> {
    const status: EndpointStatus = {
      name,
      status: 'ok',
      toolCount: 0,
      transport: isDocumentApi(entry) ? 'openapi' : 'endpoint',
      categories: entry.categories,
      description: entry.description,
    };
    if (!entry.enabled) return { status: { ...status, status: 'disabled' }, calls: [] };
    let problem: string | undefined;
    let good: Good | undefined;
    let resolved: Pick<ApiCall, 'headers' | 'auth'> | undefined;
    try {
      const env = envResolver(this.opts.env ?? process.env);
      const headers = env.subRecord(entry.headers);
      const auth = entry.auth ? (JSON.parse(env.sub(JSON.stringify(entry.auth))) as ApiEntry['auth']) : undefined;
      const location = env.sub(isDocumentApi(entry) ? entry.openapi : entry.url);
      const baseUrl = isDocumentApi(entry) && entry.baseUrl ? env.sub(entry.baseUrl) : undefined;
      env.check();
      // Only once every secret is there: a last good document is never served with a blank credential.
      resolved = { headers, ...(auth ? { auth } : {}) };
      this.opts.onSecrets?.(env.secrets);
      good = isDocumentApi(entry) ? await this.load(name, entry, location, baseUrl) : single(entry, location);
    } catch (err) {
      problem = (err as Error).message;
      good = this.lastGood.get(name);
    }
    if (!good || !resolved)
      return { status: { ...status, status: 'unavailable', error: problem ?? 'not loaded' }, calls: [] };
    const calls = good.operations.map((operation): ApiCall => ({
      api: name,
      baseUrl: good.baseUrl,
      operation,
      ...resolved,
      timeoutMs: entry.timeoutMs,
      retried: operation.readOnly || entry.idempotencyKeys,
    }));
    const error = problem ? `${problem} (still serving the document loaded at ${good.at})` : undefined;
    return { status: { ...status, toolCount: calls.length, ...(error ? { error } : {}) }, calls };
  }

  /** The document's operations: parsed again only when its text changed; after a failure, not tried again before its
   * backoff is over (the same failure stands in meanwhile). */
  private async load(
    name: string,
    entry: Extract<ApiEntry, { openapi: string }>,
    location: string,
    baseUrl: string | undefined,
  ): Promise<Good> {
    const key = JSON.stringify([location, entry.includeOperations, entry.excludeOperations, baseUrl]);
    const failed = this.failing.get(name);
    // Only a document over the network waits out its backoff: a file is read again at once (it may be fixed now).
    const remote = /^https?:\/\//i.test(location);
    if (remote && failed?.key === key && Date.now() < failed.retryAt) throw new Error(failed.error);
    try {
      const good = await this.fetchAndParse(name, entry, location, baseUrl);
      this.failing.delete(name);
      return good;
    } catch (err) {
      const failures = (failed?.key === key ? failed.failures : 0) + 1;
      const retryAt = Date.now() + Math.min(RETRY_FIRST_MS * 2 ** (failures - 1), RETRY_MAX_MS);
      this.failing.set(name, { key, error: (err as Error).message, failures, retryAt });
      throw err;
    }
  }

  private async fetchAndParse(
    name: string,
    entry: Extract<ApiEntry, { openapi: string }>,
    location: string,
    baseUrl: string | undefined,
  ): Promise<Good> {
    const { text, source } = await fetchDocument(location, {
      baseDir: this.opts.baseDir,
      maxBytes: this.opts.maxDocumentBytes,
      timeoutMs: Math.min(entry.timeoutMs, FETCH_TIMEOUT_MS),
    });
    const hash = createHash('sha256')
      .update(text)
      .update(JSON.stringify([entry.includeOperations, entry.excludeOperations, baseUrl]))
      .digest('hex');
    const known = this.lastGood.get(name);
    if (known?.hash === hash) return known;
    const { doc } = await parseDocument(text, source);
    const operations = operationsOf(doc, entry.includeOperations, entry.excludeOperations);
    const good = { hash, operations, baseUrl: baseUrlOf(doc, source, baseUrl), at: new Date().toISOString() };
    this.lastGood.set(name, good);
    return good;
  }
}

/** A single-endpoint entry as one operation: GET-like methods send the arguments as the query, the rest as the body. */
function single(entry: Extract<ApiEntry, { url: string }>, url: string): Good {
  const method = entry.method.toLowerCase() as HttpMethod;
  const readOnly = ['get', 'head', 'options'].includes(method);
  const operation: ApiOperation = {
    id: 'call',
    method,
    path: '',
    parameters: [],
    ...(readOnly
      ? { argsAre: 'query' as const }
      : { body: { contentType: 'application/json', required: true }, argsAre: 'body' as const }),
    readOnly,
    description: `${entry.description} (${entry.method} ${url})`,
    inputSchema: entry.inputSchema,
  };
  return { hash: '', operations: [operation], baseUrl: url, at: new Date().toISOString() };
}

/** An operation as the workflow and the model see it: reads run without asking, writes wait for approval (unless the
 * entry says `requireApproval: "never"`, or `"always"` for every call). */
export function apiToolSpec(api: string, entry: ApiEntry, op: ApiOperation, taken: Set<string>): ToolSpec {
  const approval =
    entry.requireApproval === 'always'
      ? 'always'
      : entry.requireApproval === 'never'
        ? 'never'
        : op.readOnly
          ? 'never'
          : 'always';
  return {
    name: mcpToolName(api, op.id, taken),
    description: `${op.description} (HTTP API "${api}")`,
    category: entry.categories[0] ?? 'http',
    inputSchema: op.inputSchema,
    approval,
    kind: 'http',
    readOnly: op.readOnly,
    http: {
      api,
      operation: op.id,
      method: op.method.toUpperCase(),
      // Reads are sent again, and writes to an API that honours the Idempotency-Key they carry (`idempotencyKeys`).
      // HTTP calls PUT and DELETE idempotent, but an API need not honour it: elsewhere a write that may have acted is
      // the user's to check.
      idempotent: op.readOnly || entry.idempotencyKeys,
      timeoutMs: entry.timeoutMs,
    },
  };
}
