// A V8 heap snapshot (.heapsnapshot, as the inspector writes it) summarised by constructor: how many objects, their
// own bytes, and the bytes they retain (what would be freed with them: the dominator tree, weak edges not counted).
// Two snapshots of one worker, idle and holding N conversations, give what a conversation costs and in what.
// `tsx bench/heap-summary.ts idle.heapsnapshot held.heapsnapshot [N] [group]` prints the difference, per conversation
// (within a group: what that group's objects retain).
import { readFileSync } from 'node:fs';

interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** One group's figures: objects, their own bytes, and what they retain (counted once where they nest). */
export interface Group {
  count: number;
  selfBytes: number;
  retainedBytes: number;
}

export type Summary = Map<string, Group>;

/** The groups of a snapshot: objects by constructor, closures by function name, the rest by V8's type; `within`: only
 * what objects of that group retain (e.g. 'RootCancellationScope': what the conversations' root scopes hold). */
export function summarise(raw: RawSnapshot, within?: string): Summary {
  const { meta } = raw.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [TYPE, NAME, SELF, EDGES] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
  const [ETYPE, ETO] = ['type', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
  const nodeTypes = meta.node_types[0];
  const weak = meta.edge_types[0].indexOf('weak');
  const shortcut = meta.edge_types[0].indexOf('shortcut');
  const { nodes, edges, strings } = raw;
  const n = nodes.length / nf;

  const firstEdge = new Int32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + EDGES]! * ef;
    firstEdge[i + 1] = e;
  }
  const strong = (e: number) => edges[e + ETYPE] !== weak && edges[e + ETYPE] !== shortcut;

  // Depth-first post order from the root (node 0), over strong edges.
  const post = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  let count = 0;
  const stack = new Int32Array(n);
  const cursor = new Int32Array(n);
  const seen = new Uint8Array(n);
  let sp = 0;
  stack[sp++] = 0;
  seen[0] = 1;
  cursor[0] = firstEdge[0]!;
  while (sp > 0) {
    const v = stack[sp - 1]!;
    let pushed = false;
    while (cursor[v]! < firstEdge[v + 1]!) {
      const e = cursor[v]!;
      cursor[v] = e + ef;
      if (!strong(e)) continue;
      const w = edges[e + ETO]! / nf;
      if (seen[w]) continue;
      seen[w] = 1;
      cursor[w] = firstEdge[w]!;
      stack[sp++] = w;
      pushed = true;
      break;
    }
    if (!pushed) {
      sp--;
      post[v] = count;
      order[count++] = v;
    }
  }

  // Predecessors over strong edges, among reached nodes.
  const predCount = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    if (!seen[v]) continue;
    for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += ef)
      if (strong(e) && seen[edges[e + ETO]! / nf]) predCount[edges[e + ETO]! / nf + 1]!++;
  }
  for (let i = 0; i < n; i++) predCount[i + 1]! += predCount[i]!;
  const preds = new Int32Array(predCount[n]!);
  const fill = predCount.slice(0, n);
  for (let v = 0; v < n; v++) {
    if (!seen[v]) continue;
    for (let e = firstEdge[v]!; e < firstEdge[v + 1]!; e += ef) {
      const w = edges[e + ETO]! / nf;
      if (strong(e) && seen[w]) preds[fill[w]!++] = v;
    }
  }

  // Dominators (Cooper, Harvey and Kennedy), over post-order numbers; the root is numbered last.
  const root = count - 1;
  const idom = new Int32Array(count).fill(-1);
  idom[root] = root;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (a < b) a = idom[a]!;
      while (b < a) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let p = root - 1; p >= 0; p--) {
      const v = order[p]!;
      let d = -1;
      for (let i = predCount[v]!; i < predCount[v + 1]!; i++) {
        const q = post[preds[i]!]!;
        if (idom[q] === -1) continue;
        d = d === -1 ? q : intersect(q, d);
      }
      if (d !== -1 && idom[p] !== d) {
        idom[p] = d;
        changed = true;
      }
    }
  }

  const retained = new Float64Array(count);
  for (let p = 0; p < count; p++) retained[p] = nodes[order[p]! * nf + SELF]!;
  for (let p = 0; p < root; p++) retained[idom[p]!] += retained[p]!;

  const keyOf = (v: number) => {
    const type = nodeTypes[nodes[v * nf + TYPE]!]!;
    const name = strings[nodes[v * nf + NAME]!]!;
    if (type === 'object' || type === 'native') return name;
    if (type === 'closure') return `(closure) ${name || 'anonymous'}`;
    if (type === 'hidden' || type === 'object shape') return `(${type}) ${name}`;
    return `(${type})`;
  };
  const keys = new Array<string>(count);
  for (let p = 0; p < count; p++) keys[p] = keyOf(order[p]!);

  // A group's retained bytes: those of its members no other member dominates (a node counts when no dominator of it
  // has its key). Walked root-first over the dominator tree, keeping how many ancestors hold each key.
  const childStart = new Int32Array(count + 1);
  for (let p = 0; p < root; p++) childStart[idom[p]! + 1]!++;
  for (let p = 0; p < count; p++) childStart[p + 1]! += childStart[p]!;
  const children = new Int32Array(count);
  const at = childStart.slice(0, count);
  for (let p = 0; p < root; p++) children[at[idom[p]!]!++] = p;

  const groups: Summary = new Map();
  const open = new Map<string, number>();
  const walk: number[] = [root];
  const leaving = new Uint8Array(count);
  while (walk.length) {
    const p = walk.pop()!;
    const key = keys[p]!;
    if (leaving[p]) {
      open.set(key, open.get(key)! - 1);
      continue;
    }
    if (!within || open.get(within)) {
      const g = groups.get(key) ?? { count: 0, selfBytes: 0, retainedBytes: 0 };
      g.count++;
      g.selfBytes += nodes[order[p]! * nf + SELF]!;
      if (!open.get(key)) g.retainedBytes += retained[p]!;
      groups.set(key, g);
    }
    open.set(key, (open.get(key) ?? 0) + 1);
    leaving[p] = 1;
    walk.push(p);
    for (let i = childStart[p]!; i < childStart[p + 1]!; i++) walk.push(children[i]!);
  }
  return groups;
}

export function readSnapshot(file: string, within?: string): Summary {
  return summarise(JSON.parse(readFileSync(file, 'utf8')) as RawSnapshot, within);
}

/** The groups that grew most from `before` to `after`, by retained bytes, per conversation when `per` is given. */
export function growth(before: Summary, after: Summary, per = 1, top = 25): string[][] {
  const MB = 2 ** 20;
  const zero: Group = { count: 0, selfBytes: 0, retainedBytes: 0 };
  const rows = [...after].map(([key, a]) => {
    const b = before.get(key) ?? zero;
    return {
      key,
      count: a.count - b.count,
      self: a.selfBytes - b.selfBytes,
      retained: a.retainedBytes - b.retainedBytes,
    };
  });
  const total = (s: Summary) => [...s.values()].reduce((sum, g) => sum + g.selfBytes, 0);
  const fmt = (bytes: number) => (bytes / per / MB).toFixed(3);
  return [
    ['constructor', `count${per > 1 ? ' / conv' : ''}`, 'self MB', 'retained MB'],
    ['(whole heap)', '', fmt(total(after) - total(before)), ''],
    ...rows
      .sort((x, y) => y.retained - x.retained)
      .slice(0, top)
      .map((r) => [r.key, (r.count / per).toFixed(per > 1 ? 1 : 0), fmt(r.self), fmt(r.retained)]),
  ];
}

if (require.main === module) {
  const [beforeFile, afterFile, perText, within] = process.argv.slice(2);
  if (!beforeFile || !afterFile) {
    console.error('usage: tsx bench/heap-summary.ts idle.heapsnapshot held.heapsnapshot [conversations] [group]');
    process.exit(2);
  }
  const rows = growth(readSnapshot(beforeFile, within), readSnapshot(afterFile, within), Number(perText ?? 1), 40);
  for (const row of rows) console.log(row.join('\t'));
}
