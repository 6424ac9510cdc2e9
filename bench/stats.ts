// Shared by the benchmarks: nearest-rank statistics, number formats, plain-text tables, timing, and waiting for a
// conversation's greeting.
import { performance } from 'node:perf_hooks';
import type { WorkflowHandle } from '@temporalio/client';
import { statusQuery } from '../core/messages';

export interface Summary {
  n: number;
  min: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  stddev: number;
}

/** Nearest-rank percentiles. */
export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { n: 0, min: NaN, p50: NaN, p90: NaN, p95: NaN, p99: NaN, max: NaN, mean: NaN, stddev: NaN };
  const pct = (q: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]!;
  const mean = sorted.reduce((a, b) => a + b, 0) / n;
  const stddev = Math.sqrt(sorted.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return {
    n,
    min: sorted[0]!,
    p50: pct(0.5),
    p90: pct(0.9),
    p95: pct(0.95),
    p99: pct(0.99),
    max: sorted[n - 1]!,
    mean,
    stddev,
  };
}

export const round = (x: number, digits = 3) => Number(x.toFixed(digits));

/** A summary for the JSON file: every figure but n, rounded. */
export const roundSummary = (s: Summary, digits = 3) =>
  Object.fromEntries(
    Object.entries(s)
      .filter(([k]) => k !== 'n')
      .map(([k, v]) => [k, round(v, digits)]),
  );

/** The median of some samples; NaN (printed "—") when there are none. */
export const p50Of = (xs: number[] | undefined) => (xs && xs.length ? summarize(xs).p50 : NaN);

/** ms as seconds, one decimal. */
export const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** ms with as many decimals as the size calls for: 512, 31.4, 1.23, 0.012. */
export function formatMs(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3);
}

/** x / y as "1.23×", readable across the six orders of magnitude between a cache hit and a process spawn. */
export function ratio(x: number, y: number): string {
  if (!Number.isFinite(x) || !Number.isFinite(y) || y === 0) return '—';
  const r = x / y;
  if (r >= 1e6) return `${(r / 1e6).toFixed(1)}M×`;
  if (r >= 1e4) return `${(r / 1e3).toFixed(0)}k×`;
  return `${r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r >= 0.1 ? r.toFixed(2) : r.toFixed(4)}×`;
}

/** How long `fn` took, in ms. */
export async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export async function waitForGreeting(handle: WorkflowHandle, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await handle.query(statusQuery);
    if (status.state === 'waiting_for_user') return;
    if (status.state !== 'working') throw new Error(`the conversation is ${status.state} before its first turn`);
    if (Date.now() > deadline) throw new Error('the agent did not greet in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
