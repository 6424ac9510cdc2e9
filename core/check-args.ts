// A small, deterministic JSON Schema check of a tool call's arguments: run in the workflow before approval, so the
// user is never asked to approve a call that cannot run and missing arguments are found without an activity round
// trip; and run in the web chat on arguments a person edits, so it refuses what the workflow would refuse. One walk
// over the schema finds the problems; the model and the person read them in their own words.
// It covers what LLM tool schemas use (object, required, primitive types, enum, arrays); the tool's own validator
// (zod, or the MCP server) still has the last word when the tool runs.
import type { JsonSchema, ToolOutcome } from './types';

/** One thing wrong with the arguments, found in the object at `where` ('' for the top, `address`, `tags[0]`). */
export type ArgProblem = { where: string } & (
  | { kind: 'not_object' }
  | { kind: 'missing'; names: string[] }
  | { kind: 'unknown'; name: string }
  | { kind: 'type'; path: string; expected: string[]; value: unknown }
  | { kind: 'enum'; path: string; allowed: unknown[] }
);

export interface ArgsCheck {
  /** For the LLM: every problem, one sentence each. */
  problems: string[];
  /** Required arguments absent, empty or null (top level). */
  missing: string[];
}

/** The arguments of a call as the LLM proposed them: every problem, in the words the LLM reads. */
export function checkArgs(schema: JsonSchema, args: unknown): ArgsCheck {
  const found = argProblems(schema, args);
  const top = found.find((p) => p.where === '' && p.kind === 'missing');
  return { problems: found.map(forModel), missing: top?.kind === 'missing' ? top.names : [] };
}

/** Arguments a person typed as JSON: the first problem, as a sentence for them, or the arguments when they fit. */
export function checkEditedArgs(
  text: string,
  schema: JsonSchema | undefined,
): { args: Record<string, unknown>; error?: undefined } | { error: string; args?: undefined } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `Not valid JSON: ${(err as Error).message}` };
  }
  const [first] = argProblems(schema ?? {}, value);
  return first ? { error: forPerson(first) } : { args: value as Record<string, unknown> };
}

/** Every problem of `args` against the object schema `schema`, in the order the LLM has always been told them. */
export function argProblems(schema: JsonSchema, args: unknown, where = ''): ArgProblem[] {
  if (!isPlainObject(args)) return [{ where, kind: 'not_object' }];
  const found: ArgProblem[] = [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const missing = required.filter((name) => args[name] === undefined || args[name] === null || args[name] === '');
  if (missing.length > 0) found.push({ where, kind: 'missing', names: missing });
  for (const [name, value] of Object.entries(args)) {
    const prop = properties[name];
    if (!prop) {
      if (schema.additionalProperties === false) found.push({ where, kind: 'unknown', name });
      continue;
    }
    if (value === undefined || value === null) continue;
    valueProblems(prop, value, name, where, found);
  }
  return found;
}

function valueProblems(schema: JsonSchema, value: unknown, path: string, where: string, found: ArgProblem[]): void {
  const expected = typeList(schema.type);
  if (expected.length > 0 && !expected.some((t) => matchesType(t, value))) {
    found.push({ where, kind: 'type', path, expected, value });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => allowed === value)) {
    found.push({ where, kind: 'enum', path, allowed: schema.enum });
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    value.forEach((item, i) => valueProblems(schema.items as JsonSchema, item, `${path}[${i}]`, where, found));
  }
  if (isPlainObject(value) && schema.properties) found.push(...argProblems(schema, value, join(where, path)));
}

function forModel(p: ArgProblem): string {
  const prefix = p.where ? `${p.where}: ` : '';
  switch (p.kind) {
    case 'not_object':
      return `${prefix}arguments must be a JSON object`;
    case 'missing':
      return `${prefix}missing required argument(s): ${p.names.join(', ')}`;
    case 'unknown':
      return `${prefix}unknown argument "${p.name}"`;
    case 'type':
      return `${prefix}"${p.path}" must be ${p.expected.join(' or ')}, got ${describe(p.value)}`;
    case 'enum':
      return `${prefix}"${p.path}" must be one of ${p.allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
}

function forPerson(p: ArgProblem): string {
  switch (p.kind) {
    case 'not_object':
      return p.where ? `${p.where} must be an object.` : 'The arguments must be a JSON object: { "name": value, … }.';
    case 'missing':
      return `${join(p.where, p.names[0]!)} is required.`;
    case 'unknown':
      return `${join(p.where, p.name)} is not an argument of this tool.`;
    case 'type':
      return `${join(p.where, p.path)} must be ${p.expected.join(' or ')}, not ${spelled(p.value)}.`;
    case 'enum':
      return `${join(p.where, p.path)} must be one of ${p.allowed.map((v) => JSON.stringify(v)).join(', ')}.`;
  }
}

const join = (where: string, path: string) => (where ? `${where}.${path}` : path);

function typeList(type: unknown): string[] {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The kind of a value, for the LLM. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/** The value itself, for a person who just typed it. */
function spelled(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isPlainObject(value)) return 'an object';
  if (Number.isInteger(value)) return `the integer ${value}`;
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

/** A call's outcome when its arguments do not fit (the LLM reads why); null when they fit. */
export function invalidArgs(schema: JsonSchema, args: unknown): ToolOutcome | null {
  const { problems, missing } = checkArgs(schema, args);
  return problems.length > 0 ? invalid(problems, missing) : null;
}

/** A call's outcome when what it asks cannot be done as asked: the problems, for the LLM to mend its call. */
export function invalid(problems: string[], missing: string[] = []): ToolOutcome {
  return { status: 'invalid_input', problems, missing };
}
