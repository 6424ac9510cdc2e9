// One call of an HTTP API operation: the request built from the arguments (path, query and header parameters, the
// JSON body), the entry's headers and auth, an Idempotency-Key on every call that changes something (the same on
// every attempt of the call, so a server that honours it deduplicates); the answer as an outcome. A 4xx is a tool
// error the model can act on, with the server's message; a 5xx, a timeout or a lost connection is retried when the
// operation only reads or its API honours idempotency keys (the same key again: done once), and otherwise told as it
// is: the request may have acted, so it is not sent again.
import { mayHaveRun } from '../../core/failures';
import type { ToolOutcome } from '../../core/types';
import type { ApiCall } from './api-catalog';

/** A failure worth another attempt (Temporal retries the activity): only a call that may be sent again throws it. */
export class RetryableHttpError extends Error {
  override name = 'RetryableHttpError';
}

/** Response headers worth the model's attention. */
const KEPT_HEADERS = ['location', 'etag', 'retry-after', 'content-type', 'x-ratelimit-remaining'];

export async function callApi(
  call: ApiCall,
  args: Record<string, unknown>,
  opts: { idempotencyKey: string; signal?: AbortSignal },
): Promise<ToolOutcome> {
  const { operation: op } = call;
  const request = buildRequest(call, args);
  if ('problems' in request) return { status: 'invalid_input', problems: request.problems, missing: request.missing };
  if (!op.readOnly) request.headers['idempotency-key'] = opts.idempotencyKey;
  const where = `${op.method.toUpperCase()} ${new URL(request.url).pathname}`;
  // A timer held for the call (not AbortSignal.timeout: held weakly, it may never fire), cleared when it ends.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${call.timeoutMs} ms`)), call.timeoutMs);
  const stop = () => abort.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', stop);
  let res: Response;
  let text: string;
  try {
    res = await fetch(request.url, {
      method: op.method.toUpperCase(),
      headers: request.headers,
      body: request.body,
      signal: abort.signal,
    });
    text = await res.text();
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    const cause = abort.signal.aborted ? (abort.signal.reason as Error).message : causeOf(err);
    if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(cause))
      return {
        status: 'tool_error',
        error: `${call.api}: could not connect for ${where} (${cause}); nothing was sent`,
      };
    if (call.retried) throw new RetryableHttpError(`${call.api}: ${where} failed: ${cause}`);
    return mayHaveRun(call.api, op.id, cause);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', stop);
  }
  const body = parseBody(text, res.headers.get('content-type'));
  if (res.status >= 500) {
    const why = `HTTP ${res.status} from ${call.api} for ${where}: ${messageOf(body)}`;
    if (call.retried) throw new RetryableHttpError(why);
    return {
      status: 'tool_error',
      error: `${why}. It was not sent again: it may have acted. Check before trying again.`,
    };
  }
  if (res.status >= 400)
    return { status: 'tool_error', error: `HTTP ${res.status} from ${call.api} for ${where}: ${messageOf(body)}` };
  const headers = Object.fromEntries(
    KEPT_HEADERS.flatMap((h) => (res.headers.has(h) ? [[h, res.headers.get(h)!]] : [])),
  );
  return { status: 'ok', result: { status: res.status, headers, body } };
}

type Built =
  { url: string; headers: Record<string, string>; body?: string } | { problems: string[]; missing: string[] };

function buildRequest(call: ApiCall, args: Record<string, unknown>): Built {
  const { operation: op } = call;
  const headers: Record<string, string> = { accept: 'application/json, */*;q=0.5', ...lower(call.headers) };
  const query = new URLSearchParams();
  const missing: string[] = [];
  let path = op.path;
  for (const p of op.parameters) {
    const value = args[p.name];
    if (value === undefined || value === null) {
      if (p.required) missing.push(p.name);
      continue;
    }
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(scalar(value)));
    else if (p.in === 'query') for (const v of Array.isArray(value) ? value : [value]) query.append(p.name, scalar(v));
    else headers[p.name.toLowerCase()] = scalar(value);
  }
  let body: unknown = op.argsAre === 'body' ? args : args.body;
  if (op.argsAre === 'query') for (const [k, v] of Object.entries(args)) query.append(k, scalar(v));
  if (op.body?.required && body === undefined) missing.push('body');
  if (missing.length)
    return {
      problems: missing.map((m) => `${m}: required (${op.method.toUpperCase()} ${op.path || 'the endpoint'})`),
      missing,
    };
  const auth = call.auth;
  if (auth && 'bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`;
  if (auth && 'basic' in auth)
    headers.authorization = `Basic ${Buffer.from(`${auth.basic.username}:${auth.basic.password}`).toString('base64')}`;
  if (auth && 'apiKey' in auth) {
    if (auth.apiKey.in === 'header') headers[auth.apiKey.name.toLowerCase()] = auth.apiKey.value;
    else query.append(auth.apiKey.name, auth.apiKey.value);
  }
  if (op.body && body !== undefined) {
    headers['content-type'] = op.body.contentType;
    body = JSON.stringify(body);
  } else body = undefined;
  // Appended to what the URL already asks (a single endpoint's `?format=json`), never a second `?`.
  const url = new URL(`${call.baseUrl}${path}`);
  for (const [k, v] of query) url.searchParams.append(k, v);
  return { url: url.toString(), headers, ...(body !== undefined ? { body: body as string } : {}) };
}

function parseBody(text: string, contentType: string | null): unknown {
  if (contentType && /json/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The server's own words: a JSON error's message, or the start of the text (HTML stripped). */
function messageOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const found = [
      b.message,
      b.error,
      b.detail,
      b.title,
      (b.error as Record<string, unknown> | undefined)?.message,
    ].find((m) => typeof m === 'string' && m);
    return String(found ?? JSON.stringify(body)).slice(0, 500);
  }
  const text = String(body ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.slice(0, 300) || '(no body)';
}

function scalar(value: unknown): string {
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function causeOf(err: unknown): string {
  const e = err as Error & { cause?: Error & { code?: string } };
  return e.cause ? `${e.cause.code ?? ''} ${e.cause.message}`.trim() : e.message;
}
