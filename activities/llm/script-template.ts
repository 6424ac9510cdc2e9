// The placeholders of scripted-model replies: a rule's reply is a template over the user's words (regex groups)
// and the last tool outcome, so one rule answers every booking or order, not one fixed case. Days and months are
// resolved from the model's clock (`today`), so "book next Monday to Thursday" means the same any day it is said.
import { resolveDay, resolveMonth } from '../../core/days';

/** What a template may read: the rule's regex groups and the last tool outcome (when the last message is one). */
export interface TemplateScope {
  captures: string[];
  outcome?: Record<string, unknown>;
  /** Every outcome of the last step (several calls, e.g. AskAgent side by side). */
  outcomes?: Record<string, unknown>[];
  /** The model's today (YYYY-MM-DD, from its clock), for {{day …}} and {{month …}}. */
  today: string;
}

/**
 * {{1}} → regex group; {{result.a.b}} → the last tool outcome's result.a.b; {{outcome.x}} → the outcome's x;
 * {{result.items[].name}} → the names of every item, joined by ", "; {{results[].result.summary}} → that of every
 * outcome of the last step, joined by " "; {{1:number}} → a number. {{day 1}} → group 1 as an ISO day ("next Monday"
 * → its date); {{day 2 from 1}} → group 2 on or after group 1's day (the end of "Monday to Thursday"); {{day next
 * Monday}} → that phrase's day; {{month 1}}, {{month next month}} → YYYY-MM. A phrase that is no day stays as it is.
 */
export function fillTemplate(template: string, scope: TemplateScope): string {
  return template
    .replace(CALENDAR, (_, kind: string, arg: string, from?: string) => calendar(kind, arg, from, scope))
    .replace(PLACEHOLDER, (_, key: string) => {
      const value = lookup(key, scope);
      return value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    });
}

/** Fills every string inside `value` (tool arguments); `{{x:number}}` alone in a string becomes a JSON number. */
export function fillDeep(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string')
    return NUMBER_PLACEHOLDER.test(value) ? Number(fillTemplate(value, scope)) : fillTemplate(value, scope);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, scope));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, scope)]));
  }
  return value;
}

/**
 * Only the {{day …}} and {{month …}} placeholders of `value`, deep (an eval scenario's expected arguments): the
 * rest, a script's {{1}} among them, is left for when it is answered.
 */
export function fillDays(value: unknown, today: string): unknown {
  const scope: TemplateScope = { captures: [], today };
  if (typeof value === 'string')
    return value.replace(CALENDAR, (_, kind: string, arg: string, from?: string) => calendar(kind, arg, from, scope));
  if (Array.isArray(value)) return value.map((v) => fillDays(v, today));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDays(v, today)]));
  }
  return value;
}

const CALENDAR = /\{\{\s*(day|month)\s+(.+?)(?:\s+from\s+(\d+))?\s*\}\}/g;
const PLACEHOLDER = /\{\{\s*([\w.[\]]+)(?::number)?\s*\}\}/g;
/** `{{1:number}}` alone in an argument: the value as a JSON number, for numeric tool parameters. */
const NUMBER_PLACEHOLDER = /^\{\{\s*[\w.[\]]+:number\s*\}\}$/;

function calendar(kind: string, arg: string, from: string | undefined, scope: TemplateScope): string {
  const phrase = /^\d+$/.test(arg) ? (scope.captures[Number(arg)] ?? '') : arg;
  if (kind === 'month') return resolveMonth(phrase, scope.today) ?? phrase;
  const start = from === undefined ? undefined : resolveDay(scope.captures[Number(from)] ?? '', scope.today);
  return resolveDay(phrase, scope.today, start) ?? phrase;
}

function lookup(key: string, { captures, outcome, outcomes }: TemplateScope): unknown {
  if (/^\d+$/.test(key)) return captures[Number(key)];
  const [head, ...rest] = key.split('.');
  if (head === 'results[]') return (outcomes ?? (outcome ? [outcome] : [])).map((o) => walk(o, rest)).join(' ');
  const root: unknown = head === 'result' ? outcome?.result : head === 'outcome' ? outcome : undefined;
  return walk(root, rest);
}

function walk(value: unknown, path: string[]): unknown {
  if (path.length === 0) return value;
  const [part, ...rest] = path as [string, ...string[]];
  if (part.endsWith('[]')) {
    const list = (value as Record<string, unknown> | undefined)?.[part.slice(0, -2)];
    return Array.isArray(list) ? list.map((item) => walk(item, rest)).join(', ') : undefined;
  }
  return walk((value as Record<string, unknown> | undefined)?.[part], rest);
}
