// A small, deterministic JSON Schema check run in the workflow before approval, so the user is never asked to
// approve a call that cannot run, and missing arguments are found without an activity round trip.
// It covers what LLM tool schemas use (object, required, primitive types, enum, arrays); the tool's own
// validator (zod, or the MCP server) still has the last word when the tool runs.
import type { JsonSchema } from './types';

export interface ArgsCheck {
  problems: string[];
  missing: string[];
}

export function checkArgs(schema: JsonSchema, args: unknown): ArgsCheck {
  const problems: string[] = [];
  const missing: string[] = [];
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { problems: ['arguments must be a JSON object'], missing };
  }
  const record = args as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const name of required) {
    if (record[name] === undefined || record[name] === null || record[name] === '') missing.push(name);
  }
  if (missing.length > 0) problems.push(`missing required argument(s): ${missing.join(', ')}`);
  for (const [name, value] of Object.entries(record)) {
    const prop = properties[name];
    if (!prop) {
      if (schema.additionalProperties === false) problems.push(`unknown argument "${name}"`);
      continue;
    }
    if (value === undefined || value === null) continue;
    checkValue(prop, value, name, problems);
  }
  return { problems, missing };
}

function checkValue(schema: JsonSchema, value: unknown, path: string, problems: string[]): void {
  const types = typeList(schema.type);
  if (types.length > 0 && !types.some((t) => matchesType(t, value))) {
    problems.push(`"${path}" must be ${types.join(' or ')}, got ${describe(value)}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => allowed === value)) {
    problems.push(`"${path}" must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === 'object') {
    value.forEach((item, i) => checkValue(schema.items as JsonSchema, item, `${path}[${i}]`, problems));
  }
  if (isPlainObject(value) && schema.properties) {
    const nested = checkArgs(schema, value);
    problems.push(...nested.problems.map((p) => `${path}: ${p}`));
  }
}

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

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
