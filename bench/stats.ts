// Shared by the benchmarks: nearest-rank statistics, plain-text tables, and waiting for a conversation's greeting.
import type { WorkflowHandle } from '@temporalio/client';
import { statusQuery } from '../workflows/messages';

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
  return { n, min: sorted[0]!, p50: pct(0.5), p90: pct(0.9), p95: pct(0.95), p99: pct(0.99), max: sorted[n - 1]!, mean, stddev };
}

export const round = (x: number, digits = 3) => Number(x.toFixed(digits));

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
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

/** A whole-number setting from the environment, with the variable's name in the error. */
export function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}, got "${raw}"`);
  return n;
}
