// The sandbox for model-written code (RunCode; made tools through their registry are made-tools-bench.ts's): what one
// call costs against the same function run natively, the first call (the WebAssembly module loaded and compiled) apart
// from the rest, and whether the worker's memory stays flat over many calls (each call has a fresh runtime, disposed
// after).
import { performance } from 'node:perf_hooks';
import { runSandboxed } from '../tools/made/sandbox';
import type { BenchContext, BenchPart } from './context';
import type { SandboxOptions } from './options';
import { round, summarize, table } from './stats';

/** URL extraction with a count per domain: the issue's own example of a tool made on demand. */
const CODE = `
const urls = input.match(/https?:\\/\\/[^\\s]+/g) ?? [];
const domains = {};
for (const u of urls) { const d = u.split('/')[2]; domains[d] = (domains[d] ?? 0) + 1; }
return { count: urls.length, domains };`;
const NATIVE = new Function('input', CODE) as (input: string) => unknown;
const INPUT = 'see https://a.com/x and https://b.org/y and https://a.com/z, then https://c.net';

export async function runSandboxBench(ctx: BenchContext, opts: SandboxOptions): Promise<BenchPart> {
  process.stderr.write(`bench (sandbox): ${opts.calls} calls in the sandbox and natively\n`);
  const cold = await timed(() => runSandboxed(CODE, INPUT));
  const warm: number[] = [];
  const native: number[] = [];
  const rssBefore = process.memoryUsage().rss;
  for (let i = 0; i < opts.calls; i++) {
    ctx.interrupts.check();
    warm.push(await timed(() => runSandboxed(CODE, INPUT)));
    native.push(await timed(async () => NATIVE(INPUT)));
  }
  const rssAfter = process.memoryUsage().rss;
  const w = summarize(warm);
  const n = summarize(native);
  const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
  const text = [
    `Sandbox: ${opts.calls} calls of a URL-counting function (QuickJS in WebAssembly, a fresh runtime each) and the same function natively.`,
    table([
      ['', 'p50 ms', 'p95 ms', 'max ms'],
      ['sandbox, first call (module loaded)', String(round(cold, 2)), '', ''],
      ['sandbox, each later call', String(round(w.p50, 3)), String(round(w.p95, 3)), String(round(w.max, 3))],
      ['native', String(round(n.p50, 4)), String(round(n.p95, 4)), String(round(n.max, 4))],
    ]),
    `Worker RSS ${mb(rssBefore)} MB before the ${opts.calls} calls, ${mb(rssAfter)} MB after.`,
  ].join('\n');
  return {
    text,
    json: {
      calls: opts.calls,
      coldMs: cold,
      sandbox: w,
      native: n,
      rssBeforeMb: mb(rssBefore),
      rssAfterMb: mb(rssAfter),
    },
  };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}
