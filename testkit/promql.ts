// PromQL as Prometheus's own parser reads it (@prometheus-io/lezer-promql): whether a query parses, and the metrics
// and labels it names; and a Prometheus text exposition (a /metrics scrape) as metric → label names.
import type { parser as Parser } from '@prometheus-io/lezer-promql' with { 'resolution-mode': 'import' };

// The package is ESM with a CommonJS build: its types are read as ESM, its code loaded as CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parser } = require('@prometheus-io/lezer-promql') as { parser: typeof Parser };

export interface QueryNames {
  /** Syntax errors, by position; empty when the query parses. */
  errors: string[];
  metrics: string[];
  /** Labels in matchers and in by/without clauses. */
  labels: string[];
}

export function namesIn(query: string): QueryNames {
  const errors: string[] = [];
  const metrics = new Set<string>();
  const labels = new Set<string>();
  parser.parse(query).iterate({
    enter(node) {
      const text = query.slice(node.from, node.to);
      if (node.type.isError) errors.push(`at ${node.from}: "${query.slice(node.from, node.from + 20)}"`);
      else if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') metrics.add(text);
      else if (node.name === 'LabelName') labels.add(text);
    },
  });
  return { errors, metrics: [...metrics], labels: [...labels] };
}

/** Each metric sample name in a scrape, with the label names seen on it (a histogram's `le` on its `_bucket`). */
export function scrapedNames(exposition: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const line of exposition.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})?\s/.exec(line);
    if (!m) continue;
    const labels = found.get(m[1]!) ?? new Set<string>();
    for (const pair of (m[3] ?? '').matchAll(/([a-zA-Z_]\w*)="/g)) labels.add(pair[1]!);
    found.set(m[1]!, labels);
  }
  return found;
}
