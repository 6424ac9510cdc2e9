// Loading an HTTP API's OpenAPI (3.x) or Swagger (2.0) document: from a file (relative to the project folder) or an
// http(s) URL, at most OPENAPI_MAX_BYTES, JSON or YAML, then validated and dereferenced by swagger-parser (never by
// hand). What goes wrong comes back as one sentence: not found, too big, not JSON or YAML, invalid, a $ref that
// points nowhere.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { load as loadYaml } from 'js-yaml';

/** A document larger than this is refused (GitHub's whole API, ~1,200 operations, is 13 MB). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

export interface LoadedDocument {
  /** The document, validated and dereferenced (circular references left as `$ref`). */
  doc: Record<string, unknown>;
  /** The raw text's size. */
  bytes: number;
  /** Where relative server URLs and `$ref`s resolve from. */
  source: string;
}

/** The document's text: a file below `baseDir` or an http(s) URL, refused past `maxBytes`. */
export async function fetchDocument(
  location: string,
  opts: { baseDir: string; maxBytes: number; timeoutMs: number },
): Promise<{ text: string; source: string }> {
  const tooBig = (bytes: number) =>
    new Error(`the document is ${(bytes / 1024 / 1024).toFixed(1)} MB; the limit is ${opts.maxBytes / 1024 / 1024} MB`);
  if (/^https?:\/\//i.test(location)) {
    const res = await fetch(location, { signal: AbortSignal.timeout(opts.timeoutMs) }).catch((err: Error) => {
      throw new Error(`could not fetch ${location}: ${err.cause instanceof Error ? err.cause.message : err.message}`);
    });
    if (!res.ok) throw new Error(`fetching ${location} answered HTTP ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > opts.maxBytes) throw tooBig(declared);
    const text = await res.text();
    if (Buffer.byteLength(text) > opts.maxBytes) throw tooBig(Buffer.byteLength(text));
    return { text, source: location };
  }
  const file = path.resolve(opts.baseDir, location);
  const size = await stat(file).then(
    (s) => s.size,
    () => {
      throw new Error(`no document at ${file}`);
    },
  );
  if (size > opts.maxBytes) throw tooBig(size);
  return { text: await readFile(file, 'utf8'), source: file };
}

/** Parses, validates and dereferences a document's text. */
export async function parseDocument(text: string, source: string): Promise<LoadedDocument> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    try {
      raw = loadYaml(text);
    } catch (err) {
      throw new Error(`not JSON or YAML: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (!raw || typeof raw !== 'object' || !('openapi' in raw || 'swagger' in raw))
    throw new Error('not an OpenAPI or Swagger document (no "openapi" or "swagger" field)');
  try {
    const doc = await SwaggerParser.validate(source, raw as never, { dereference: { circular: 'ignore' } });
    return { doc: doc as unknown as Record<string, unknown>, bytes: Buffer.byteLength(text), source };
  } catch (err) {
    // swagger-parser's messages run to many lines (one per schema error): the first few say enough.
    const lines = (err as Error).message.split('\n').filter((l) => l.trim());
    throw new Error(`invalid document: ${lines.slice(0, 4).join(' ').slice(0, 600)}`);
  }
}

/** The base URL requests go to: the entry's, else the document's first server (Swagger: scheme, host, basePath). */
export function baseUrlOf(doc: Record<string, unknown>, source: string, configured?: string): string {
  if (configured) return configured.replace(/\/$/, '');
  const servers = doc.servers as { url?: string }[] | undefined;
  let url = servers?.[0]?.url;
  if (!url && typeof doc.host === 'string') {
    const scheme = (doc.schemes as string[] | undefined)?.[0] ?? 'https';
    url = `${scheme}://${doc.host}${(doc.basePath as string | undefined) ?? ''}`;
  }
  if (!url) throw new Error('the document names no server: set baseUrl in the entry');
  // A relative server URL is relative to where the document came from.
  if (!/^https?:\/\//i.test(url)) {
    if (!/^https?:\/\//i.test(source)) throw new Error(`the document's server "${url}" is relative: set baseUrl`);
    url = new URL(url, source).toString();
  }
  return url.replace(/\/$/, '');
}
