// Checks edited tool arguments before they are sent: valid JSON, an object, the schema's required properties,
// primitive types and enums, nested. The worker checks them fully (zod or Ajv); this catches slips at the keyboard.
import type { JsonSchema } from '../core/types';

export type ArgsCheck = { args: Record<string, unknown>; error?: undefined } | { error: string; args?: undefined };

export function checkArgs(text: string, schema: JsonSchema | undefined): ArgsCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `Not valid JSON: ${(err as Error).message}` };
  }
  if (!isObject(value)) return { error: 'The arguments must be a JSON object: { "name": value, … }.' };
  const problem = schema ? check(value, schema, '') : null;
  return problem ? { error: problem } : { args: value };
}

function check(value: unknown, schema: JsonSchema, path: string): string | null {
  const where = path || 'The arguments';
  const types =
    typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.map(String) : null;
  if (types && !types.some((t) => hasType(value, t)))
    return `${where} must be ${types.join(' or ')}, not ${kindOf(value)}.`;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    return `${where} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}.`;
  }
  if (isObject(value)) {
    const props = isObject(schema.properties) ? schema.properties : {};
    for (const name of Array.isArray(schema.required) ? schema.required : []) {
      if (typeof name === 'string' && !(name in value)) return `${at(path, name)} is required.`;
    }
    for (const [name, sub] of Object.entries(props)) {
      const problem = name in value && isObject(sub) ? check(value[name], sub, at(path, name)) : null;
      if (problem) return problem;
    }
    if (schema.additionalProperties === false) {
      const unknown = Object.keys(value).find((name) => !(name in props));
      if (unknown) return `${at(path, unknown)} is not an argument of this tool.`;
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    for (const [i, item] of value.entries()) {
      const problem = check(item, schema.items, `${path || 'arguments'}[${i}]`);
      if (problem) return problem;
    }
  }
  return null;
}

function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    default:
      return true;
  }
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (Number.isInteger(v)) return `the integer ${v}`;
  return typeof v === 'object' ? 'an object' : `the ${typeof v} ${JSON.stringify(v)}`;
}

const at = (path: string, name: string) => (path ? `${path}.${name}` : name);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
