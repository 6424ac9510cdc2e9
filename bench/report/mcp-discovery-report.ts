// The MCP discovery table and its JSON: cold, re-list and cache-hit times per endpoint count, and how they compare.
import type { McpOptions } from '../options';
import type { DiscoverySampler } from '../scenarios/mcp-discovery';
import { formatMs, ratio, round, roundSummary, summarize, table } from '../stats';

function summaries(results: DiscoverySampler[]) {
  const byN = results.map((r) => ({
    r,
    cold: summarize(r.samples),
    hit: summarize(r.warmHit),
    relist: summarize(r.warmRelist),
    close: summarize(r.poolClose),
  }));
  // Cold times are compared with N=1 when it was measured, else with the first count.
  const coldOne = byN.find((x) => x.r.endpoints === 1)?.cold ?? byN[0]!.cold;
  return { byN, coldOne };
}

export function discoveryLines(opts: McpOptions, results: DiscoverySampler[]): string[] {
  const { byN, coldOne } = summaries(results);
  const rows = [
    [
      'endpoints',
      'tools',
      'cold p50',
      'cold p95',
      'cold vs N=1',
      're-list p50',
      're-list p95',
      'hit p50',
      'hit p95',
      'cold:re-list',
      'cold:hit',
      're-list:hit',
    ],
    ...byN.map(({ r, cold, hit, relist }) => [
      String(r.endpoints),
      String(r.tools),
      formatMs(cold.p50),
      formatMs(cold.p95),
      ratio(cold.p50, coldOne.p50),
      formatMs(relist.p50),
      formatMs(relist.p95),
      formatMs(hit.p50),
      formatMs(hit.p95),
      ratio(cold.p50, relist.p50),
      ratio(cold.p50, hit.p50),
      ratio(relist.p50, hit.p50),
    ]),
  ];
  return [
    `MCP discovery: McpDiscovery.catalog() over N fx stdio endpoints (ms). cold: a fresh pool, spawns N servers and lists them ` +
      `(${opts.coldRuns} runs per N, pool closed after each); re-list: after invalidate(), over the live pooled sessions ` +
      `(${opts.warmRelistsPerPool} per run); hit: nothing changed, cached catalog (${opts.warmHitsPerPool} per run).`,
    table(rows),
    `Closing a pool p50 (ms): ${byN.map(({ r, close }) => `N=${r.endpoints} ${formatMs(close.p50)}`).join(', ')}.`,
  ];
}

export function discoveryJson(results: DiscoverySampler[], ms: number): Record<string, unknown> {
  const { byN, coldOne } = summaries(results);
  return {
    note: 'cold: fresh McpPool + McpDiscovery (spawn N, handshake, tools/list); warmRelist: invalidate() then catalog() over pooled sessions; warmHit: catalog() unchanged',
    ms: round(ms, 1),
    results: byN.map(({ r, cold, hit, relist, close }) => ({
      endpoints: r.endpoints,
      tools: r.tools,
      cold: { iterations: cold.n, ms: roundSummary(cold), samplesMs: r.samples.map((x) => round(x)) },
      warmRelist: { iterations: relist.n, ms: roundSummary(relist) },
      warmHit: { iterations: hit.n, ms: roundSummary(hit, 4) },
      poolClose: { iterations: close.n, ms: roundSummary(close) },
      ratios: {
        coldVsN1P50: round(cold.p50 / coldOne.p50, 3),
        coldToRelistP50: round(cold.p50 / relist.p50, 2),
        coldToHitP50: round(cold.p50 / hit.p50, 1),
        relistToHitP50: round(relist.p50 / hit.p50, 1),
      },
    })),
  };
}
