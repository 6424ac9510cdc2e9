// A small JSONPath, written here so nothing in a query is ever run: `$.a.b[0]`, `$['a b']`, `$.items[*].name`,
// `[start:end:step]` slices, `[0,2]` and `['a','b']` unions, `..name` and `..*` descent. Filter and script
// expressions (`[?(…)]`, `[(…)]`) are refused, not evaluated.
import { FileRefusal } from './reader';

type Selector = { name: string } | { wildcard: true } | { index: number } | { slice: [number?, number?, number?] };
interface Step {
  descend: boolean;
  selectors: Selector[];
}

/** The values `path` selects in `root`, in document order. */
export function queryJson(root: unknown, path: string): unknown[] {
  let nodes: unknown[] = [root];
  for (const step of parsePath(path)) {
    const from = step.descend ? nodes.flatMap(descendantsOrSelf) : nodes;
    nodes = from.flatMap((node) => step.selectors.flatMap((s) => select(node, s)));
  }
  return nodes;
}

export function parsePath(input: string): Step[] {
  let path = input.trim();
  if (!path.startsWith('$')) path = path.startsWith('[') || path.startsWith('..') ? `$${path}` : `$.${path}`;
  const bad = (why: string) => new FileRefusal(`not a JSONPath I can follow: ${input} (${why})`);
  const steps: Step[] = [];
  let at = 1;
  while (at < path.length) {
    let descend = false;
    if (path.startsWith('..', at)) {
      descend = true;
      at += 2;
    } else if (path[at] === '.') at += 1;
    else if (path[at] !== '[') throw bad(`unexpected "${path[at]}" at ${at}`);
    if (path[at] === '[') {
      const close = closingBracket(path, at);
      if (close < 0) throw bad('a "[" is not closed');
      steps.push({ descend, selectors: parseBracket(path.slice(at + 1, close), bad) });
      at = close + 1;
    } else {
      const name = /^(\*|[^.[\]\s]+)/.exec(path.slice(at))?.[0];
      if (!name) throw bad(`a name is missing at ${at}`);
      steps.push({ descend, selectors: [name === '*' ? { wildcard: true } : { name }] });
      at += name.length;
    }
  }
  return steps;
}

function closingBracket(path: string, open: number): number {
  let quote = '';
  for (let i = open + 1; i < path.length; i++) {
    const c = path[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ']') return i;
  }
  return -1;
}

function parseBracket(inside: string, bad: (why: string) => FileRefusal): Selector[] {
  const body = inside.trim();
  if (body.startsWith('?') || body.startsWith('(')) {
    throw bad('filter and script expressions are not run; use names, indexes, [*], slices or a column filter instead');
  }
  if (body === '*') return [{ wildcard: true }];
  return splitUnion(body).map((part): Selector => {
    const quoted = /^(['"])(.*)\1$/s.exec(part);
    if (quoted) return { name: quoted[2].replace(/\\(.)/g, '$1') };
    if (/^-?\d+$/.test(part)) return { index: Number(part) };
    const slice = /^(-?\d+)?\s*:\s*(-?\d+)?\s*(?::\s*(-?\d+)?)?$/.exec(part);
    if (slice) {
      const [, start, end, step] = slice.map((v) => (v === undefined ? undefined : Number(v)));
      if (step === 0) throw bad('a slice step of 0');
      return { slice: [start, end, step] };
    }
    throw bad(`"${part}" is not a name in quotes, an index or a slice`);
  });
}

function splitUnion(body: string): string[] {
  const parts: string[] = [];
  let quote = '';
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quote) {
      if (c === '\\') current += c + (body[++i] ?? '');
      else current += c;
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (c === ',') {
      parts.push(current.trim());
      current = '';
    } else current += c;
  }
  parts.push(current.trim());
  return parts;
}

function select(node: unknown, selector: Selector): unknown[] {
  if ('wildcard' in selector) return Array.isArray(node) ? node : isObject(node) ? Object.values(node) : [];
  if ('name' in selector) return isObject(node) && Object.hasOwn(node, selector.name) ? [node[selector.name]] : [];
  if (!Array.isArray(node)) return [];
  if ('index' in selector) {
    const i = selector.index < 0 ? node.length + selector.index : selector.index;
    return i >= 0 && i < node.length ? [node[i]] : [];
  }
  const [start, end, step = 1] = selector.slice;
  const n = node.length;
  const norm = (v: number | undefined, fallback: number) =>
    v === undefined ? fallback : v < 0 ? Math.max(n + v, step > 0 ? 0 : -1) : Math.min(v, step > 0 ? n : n - 1);
  const out: unknown[] = [];
  if (step > 0) for (let i = norm(start, 0); i < norm(end, n); i += step) out.push(node[i]);
  else for (let i = norm(start, n - 1); i > norm(end, -1); i += step) out.push(node[i]);
  return out;
}

function descendantsOrSelf(node: unknown): unknown[] {
  const out: unknown[] = [];
  const stack: unknown[] = [node];
  while (stack.length) {
    const current = stack.pop();
    out.push(current);
    const children = Array.isArray(current) ? current : isObject(current) ? Object.values(current) : [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
