// The MCP tool-call table and its JSON: every way of calling compared with a (the durable turn), the ratios the
// README quotes, and each turn's activity run times from the server history.
import type { McpCallResults } from '../mcp-calls';
import { CONVERT_ARGS } from '../fx';
import { formatMs, p50Of, ratio, round, roundSummary, summarize, table, type Summary } from '../stats';

type Stats = Map<string, Summary>;
const statsOf = (calls: McpCallResults): Stats =>
  new Map(calls.scenarios.map((s) => [s.key, summarize(s.sampler.samples)]));

export function mcpCallLines(calls: McpCallResults): string[] {
  const stats = statsOf(calls);
  const [a, aNative, b] = (['a', "a'", 'b'] as const).map((k) => stats.get(k)!);
  const rows = [
    ['MCP tool call (fx convert, stdio)', 'n', 'p50 ms', 'p95 ms', 'mean ms', 'p50 vs a', 'p95 vs a'],
    ...calls.scenarios.map((s) => {
      const st = stats.get(s.key)!;
      const vsA = (q: 'p50' | 'p95') => (s.key === 'a' ? '—' : ratio(st[q], a![q]));
      return [s.name, String(st.n), formatMs(st.p50), formatMs(st.p95), formatMs(st.mean), vsA('p50'), vsA('p95')];
    }),
  ];
  const both = (x: Summary, y: Summary) => `${ratio(x.p50, y.p50)} / ${ratio(x.p95, y.p95)}`;
  const gap = a!.p50 - aNative!.p50;
  const activities = (key: string) =>
    Object.entries(calls.activityMs[key] ?? {})
      .map(([name, xs]) => `${name} ${formatMs(p50Of(xs))}`)
      .join(', ');
  return [
    table(rows),
    '',
    `Ratios (p50 / p95): b:a ${both(b!, a!)}; a:a' ${both(a!, aNative!)} ` +
      `(MCP turn ${gap >= 0 ? '+' : '−'}${formatMs(Math.abs(gap))} ms at p50 over the native one-tool turn).`,
    `Activity run time p50 (ms, history timestamps): a: ${activities('a')}; a': ${activities("a'")}.`,
  ];
}

export function mcpCallJson(calls: McpCallResults): Record<string, unknown> {
  const stats = statsOf(calls);
  const [a, aNative, b] = (['a', "a'", 'b'] as const).map((k) => stats.get(k)!);
  const ratios = { 'b:a': [b!, a!], "a:a'": [a!, aNative!] } as const;
  return {
    tool: 'convert',
    args: CONVERT_ARGS,
    order: "a, a', b interleaved round-robin (start rotated each iteration)",
    percentileMethod: 'nearest rank',
    conversationsStarted: calls.conversations,
    results: calls.scenarios.map((s) => {
      const st = stats.get(s.key)!;
      const samplesMs = s.sampler.samples.map((x) => round(x));
      return {
        key: s.key,
        scenario: s.name.trim(),
        description: s.description,
        iterations: st.n,
        ms: roundSummary(st),
        samplesMs,
      };
    }),
    ratios: Object.fromEntries(
      Object.entries(ratios).map(([k, [x, y]]) => [k, { p50: round(x.p50 / y.p50, 4), p95: round(x.p95 / y.p95, 4) }]),
    ),
    mcpTurnMinusNativeTurnP50Ms: round(a!.p50 - aNative!.p50),
    activityP50Ms: Object.fromEntries(
      Object.entries(calls.activityMs).map(([key, byName]) => [
        key,
        Object.fromEntries(Object.entries(byName).map(([n, xs]) => [n, round(p50Of(xs))])),
      ]),
    ),
    measureMs: round(calls.ms, 1),
  };
}
