// An OpenAPI document's operations as tools: one per operation, named `<api>__<operationId>` (sanitised like MCP
// names), its input schema built from the path, query and header parameters and the JSON request body (`body`), its
// description from the summary. Schemas are compacted (descriptions only near the top, depth and length capped): a
// 1,000-operation API's specs travel in a workflow's history, so each must stay small.
import type { JsonSchema } from '../../core/types';
import { globMatch } from '../../core/naming';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
const READ_ONLY = new Set<string>(['get', 'head', 'options']);

export interface ApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
}

/** One operation, as the worker calls it: never leaves the worker (the workflow sees the tool spec). */
export interface ApiOperation {
  /** The operationId, or `METHOD /path` when the document gives none. */
  id: string;
  method: HttpMethod;
  path: string;
  parameters: ApiParameter[];
  /** The JSON request body's media type, when the operation takes one. */
  body?: { contentType: string; required: boolean };
  /** A single-endpoint entry's arguments are the whole query or body, not named parameters and `body`. */
  argsAre?: 'query' | 'body';
  /** GET, HEAD, OPTIONS: changes nothing, runs without asking, and is the only kind retried. */
  readOnly: boolean;
  description: string;
  inputSchema: JsonSchema;
}

type Json = Record<string, unknown>;

/** Every operation of a dereferenced document, as tools would call them, filtered by the entry's globs. */
export function operationsOf(doc: Json, include: string[] = ['*'], exclude: string[] = []): ApiOperation[] {
  const found: ApiOperation[] = [];
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method] as Json | undefined;
      if (!op) continue;
      const id = typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${path}`;
      const keys = [id, `${method.toUpperCase()} ${path}`, ...((op.tags as string[] | undefined) ?? [])];
      const matches = (globs: string[]) => globs.some((g) => keys.some((k) => globMatch(g, k)));
      if (!matches(include) || matches(exclude)) continue;
      found.push(operation(id, method, path, [...asArray(item.parameters), ...asArray(op.parameters)], op, doc));
    }
  }
  return found;
}

function operation(id: string, method: HttpMethod, path: string, params: Json[], op: Json, doc: Json): ApiOperation {
  // An operation's parameter overrides the path item's of the same name and place.
  const byKey = new Map<string, Json>();
  for (const p of params) if (p && typeof p.name === 'string') byKey.set(`${p.in}:${p.name}`, p);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const parameters: ApiParameter[] = [];
  for (const p of byKey.values()) {
    if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue; // cookies are the API's business
    const name = p.name as string;
    const isRequired = p.in === 'path' || p.required === true;
    parameters.push({ name, in: p.in, required: isRequired });
    // Swagger 2.0 puts the type on the parameter itself.
    const schema = (p.schema as Json | undefined) ?? pick(p, ['type', 'format', 'enum', 'items', 'default']);
    properties[name] = compact({ ...schema, description: p.description ?? schema.description }, 0);
    if (isRequired) required.push(name);
  }
  const body = requestBody(op, params, doc);
  if (body) {
    properties.body = compact({ ...body.schema, description: body.description }, 0);
    if (body.required) required.push('body');
  }
  const summary = [op.summary, op.description].find((s) => typeof s === 'string' && s.trim()) as string | undefined;
  return {
    id,
    method,
    path,
    parameters,
    ...(body ? { body: { contentType: body.contentType, required: body.required } } : {}),
    readOnly: READ_ONLY.has(method),
    description: trim(`${summary?.trim() ?? id} (${method.toUpperCase()} ${path})`, 300),
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
  };
}

/** The JSON body: OpenAPI 3's requestBody, or Swagger 2.0's `in: body` parameter. */
function requestBody(op: Json, params: Json[], doc: Json) {
  const rb = op.requestBody as Json | undefined;
  if (rb) {
    const content = (rb.content ?? {}) as Record<string, Json>;
    const type = Object.keys(content).find((t) => /json/i.test(t));
    if (!type) return undefined; // forms and files are not for a model to send
    return {
      contentType: type,
      schema: (content[type]!.schema ?? {}) as Json,
      required: rb.required === true,
      description: rb.description,
    };
  }
  const swagger = params.find((p) => p?.in === 'body');
  if (!swagger) return undefined;
  const consumes = [...asArray<string>(op.consumes), ...asArray<string>(doc.consumes)];
  return {
    contentType: consumes.find((t) => /json/i.test(t)) ?? 'application/json',
    schema: (swagger.schema ?? {}) as Json,
    required: swagger.required === true,
    description: swagger.description,
  };
}

const KEEP = new Set([
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'const',
  'format',
  'default',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'oneOf',
  'anyOf',
  'allOf',
  'additionalProperties',
  'nullable',
  'description',
]);
const MAX_DEPTH = 4;

/** The schema with what a model needs: structure and types everywhere, descriptions near the top only. */
export function compact(schema: unknown, depth: number, seen = new Set<unknown>()): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  if (seen.has(schema) || depth > MAX_DEPTH) return {}; // a circular or very deep schema: any value there
  seen.add(schema);
  try {
    if (Array.isArray(schema)) return schema.slice(0, 50).map((s) => compact(s, depth, seen));
    const out: Json = {};
    for (const [key, value] of Object.entries(schema as Json)) {
      if (!KEEP.has(key)) continue;
      if (key === 'description') {
        if (depth <= 1 && typeof value === 'string' && value.trim()) out.description = trim(value.trim(), 100);
      } else if (key === 'properties' && value && typeof value === 'object') {
        out.properties = Object.fromEntries(
          Object.entries(value as Json).map(([name, s]) => [name, compact(s, depth + 1, seen)]),
        );
      } else if (key === 'enum' && Array.isArray(value)) out.enum = value.slice(0, 50);
      else out[key] = compact(value, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(schema);
  }
}

function pick(o: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

function asArray<T = Json>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function trim(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
