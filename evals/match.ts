// Whether a value is what a scenario expects, and if not, where it differs, in words for the report. Partial: the
// expected object's keys at least (nested likewise), arrays element by element and of the same length, and a string
// written /pattern/flags as a regular expression. Exact: equal as JSON, nothing more, nothing less.

export type MatchMode = 'partial' | 'exact';

/** Null when `actual` matches `expected`; else where and how it differs ("amount: expected 500, got 50"). */
export function mismatch(expected: unknown, actual: unknown, mode: MatchMode = 'partial', at = ''): string | null {
  const where = at ? `${at}: ` : '';
  if (mode === 'partial' && typeof expected === 'string') {
    const pattern = asRegExp(expected);
    if (pattern)
      return typeof actual === 'string' && pattern.test(actual)
        ? null
        : `${where}expected ${expected}, got ${show(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${where}expected a list, got ${show(actual)}`;
    if (actual.length !== expected.length)
      return `${where}expected ${expected.length} item(s), got ${actual.length}: ${show(actual)}`;
    for (const [i, e] of expected.entries()) {
      const miss = mismatch(e, actual[i], mode, `${at}[${i}]`);
      if (miss) return miss;
    }
    return null;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${where}expected an object, got ${show(actual)}`;
    for (const [key, e] of Object.entries(expected)) {
      const path = at ? `${at}.${key}` : key;
      if (!(key in actual)) return `${path}: missing (expected ${show(e)})`;
      const miss = mismatch(e, actual[key], mode, path);
      if (miss) return miss;
    }
    if (mode === 'exact') {
      const extra = Object.keys(actual).filter((k) => !(k in expected));
      if (extra.length) return `${where}unexpected ${extra.join(', ')} (${show(actual)})`;
    }
    return null;
  }
  return Object.is(expected, actual) ? null : `${where}expected ${show(expected)}, got ${show(actual)}`;
}

function asRegExp(s: string): RegExp | null {
  const m = /^\/(.+)\/([a-z]*)$/.exec(s);
  return m ? new RegExp(m[1]!, m[2]) : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value in a report line: JSON, cut short. */
export function show(v: unknown, max = 160): string {
  const text = v === undefined ? 'nothing' : JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
