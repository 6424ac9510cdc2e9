// The MCP tool-call table and its JSON: every way of calling compared with a (the durable turn), the ratios the
// README quotes (a+:a, a turn beside a hung endpoint, has issue 8's bar of 1.2×), each turn's activity run times from
// the server history, and where c's time goes.
import type { McpCallResults } from '../mcp-calls';
import { CONVERT_ARGS } from '../fx';
import { formatMs, p50Of, ratio, round, roundSummary, summarize, table, type Summary } from '../stats';

type Stats = Map<string, Summary>;
const statsOf = (calls: McpCallResults): Stats =>
  new Map(calls.scenarios.map((s) => [s.key, summarize(s.sampler.samples)]));

/** a+ may take this many times a's time: a bad endpoint must not slow the good ones. */
const HUNG_ENDPOINT_BAR = 1.2;

export function mcpCallLines(calls: McpCallResults): string[] {
  const stats = statsOf(calls);
  const [a, aHung, aNative, b, c] = (['a', 'a+', "a'", 'b', 'c'] as const).map((k) => stats.get(k)!);
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
  const parts = calls.spawn.parts;
  return [
    table(rows),
    '',
    `Ratios (p50 / p95): b:a ${both(b!, a!)}, c:a ${both(c!, a!)}, c:b ${both(c!, b!)}; a:a' ${both(a!, aNative!)} ` +
      `(MCP turn ${gap >= 0 ? '+' : '−'}${formatMs(Math.abs(gap))} ms at p50 over the native one-tool turn).`,
    `A hung endpoint in the registry: a+:a ${both(aHung!, a!)} (bar: ≤ ${HUNG_ENDPOINT_BAR}× at p50 and p95).`,
    `Activity run time p50 (ms, history timestamps): a: ${activities('a')}; a+: ${activities('a+')}; a': ${activities("a'")}.`,
    `c split p50 (ms): spawn + connect ${formatMs(p50Of(parts.connect))}, callTool ${formatMs(p50Of(parts.call))}, ` +
      `close (process exit) ${formatMs(p50Of(parts.close))}.`,
  ];
}

export function mcpCallJson(calls: McpCallResults): Record<string, unknown> {
  const stats = statsOf(calls);
  const [a, aHung, aNative, b, c] = (['a', 'a+', "a'", 'b', 'c'] as const).map((k) => stats.get(k)!);
  const ratios = {
    'b:a': [b!, a!],
    'c:a': [c!, a!],
    'c:b': [c!, b!],
    "a:a'": [a!, aNative!],
    'a+:a': [aHung!, a!],
  } as const;
  const parts = calls.spawn.parts;
  return {
    tool: 'convert',
    args: CONVERT_ARGS,
    order: "a, a+, a', callMcpTool, b interleaved round-robin (start rotated each iteration); c afterwards, alone",
    hungEndpointBar: HUNG_ENDPOINT_BAR,
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
    spawnPerCallP50Ms: {
      connect: round(p50Of(parts.connect)),
      callTool: round(p50Of(parts.call)),
      close: round(p50Of(parts.close)),
    },
    phaseMs: { interleaved: round(calls.phase1Ms, 1), spawnPerCall: round(calls.spawnMs, 1) },
  };
}
