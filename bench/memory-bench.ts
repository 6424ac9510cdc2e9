// Memory per cached conversation (issue 29, item 3): the compiled worker, its cache big enough to hold them all,
// holding N idle conversations: greeted (the agent's first answer, then waiting for the user), then after a few turns
// each (the PTO balance question: a tool turn; a text turn). What each costs is the worker's RSS over its idle RSS
// (after one conversation went through the same turns, so what every worker pays once — the workflow context, code
// compiled — is not counted per conversation), divided by N. Each N in a worker process of its own, `runs` times:
// min / median / max, the median against the target. RSS is read twice after each step: soon after, with the
// garbage of the work just done, and once the worker has handed that back (see readings()).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentClient } from '../client/agent-client';
import type { BenchPart } from './context';
import type { MemoryOptions } from './options';
import { renderMemoryBench, type MemoryReading, type MemoryRun } from './report/memory-report';
import { PTO_GOAL, TEXT_PROMPT, TOOL_PROMPT, turnScript } from './scripted-answers';
import { performance } from 'node:perf_hooks';
import { buildCompiledWorker, spawnWorker } from './worker-process';
import { firstPoll, workerEnv, type WorkerBenchContext } from './worker-bench';

/** The turns each conversation takes after its greeting, in this order, again from the first for more. */
export const TURNS = [TOOL_PROMPT, TEXT_PROMPT];
const turnsOf = (count: number) => Array.from({ length: count }, (_, i) => TURNS[i % TURNS.length]!);

export async function runMemoryBench(
  ctx: WorkerBenchContext,
  temporalAddress: string,
  opts: MemoryOptions,
): Promise<BenchPart> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-memory-'));
  try {
    process.stderr.write('bench (memory): compiling (tsc -p tsconfig.build.json, then the workflow bundle)…\n');
    await buildCompiledWorker();
    const script = path.join(dir, 'script.json');
    writeFileSync(script, JSON.stringify(turnScript));
    const runs: MemoryRun[] = [];
    let seq = 0;
    for (let run = 0; run < opts.runs; run++) {
      for (const conversations of opts.sizes) {
        ctx.interrupts.check();
        const queue = `bench-memory-${ctx.runId}-${++seq}`;
        process.stderr.write(`bench (memory): run ${run + 1}/${opts.runs}, ${conversations} conversations\n`);
        const env = {
          ...workerEnv(ctx, temporalAddress, dir, script),
          TASK_QUEUE: queue,
          // A cache that holds them all (and the one that warms the worker up).
          WORKER_MAX_CACHED_WORKFLOWS: String(conversations + 10),
        };
        runs.push(await holdConversations(ctx, env, conversations, opts));
      }
    }
    return renderMemoryBench({ runs, opts, turns: opts.turns });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function holdConversations(
  ctx: WorkerBenchContext,
  env: Record<string, string>,
  conversations: number,
  opts: MemoryOptions,
): Promise<MemoryRun> {
  const worker = await spawnWorker('compiled', env);
  try {
    await firstPoll(ctx, env.TASK_QUEUE!);
    const agents = new AgentClient(ctx.client, env.TASK_QUEUE!);
    const turns = turnsOf(opts.turns);
    const rssOf = () => worker.rss().worker;
    const warm = `${env.TASK_QUEUE}-warm`;
    await agents.start(PTO_GOAL, warm);
    for (const prompt of turns) await agents.say(warm, prompt);
    const idle = await readings(rssOf, opts);
    const ids = Array.from({ length: conversations }, (_, i) => `${env.TASK_QUEUE}-${i}`);
    await eachOf(ids, opts.concurrency, (id) => agents.start(PTO_GOAL, id), ctx);
    const greeted = await readings(rssOf, opts);
    const say = async (id: string) => {
      for (const prompt of turns) await agents.say(id, prompt);
    };
    const turned = turns.length
      ? await eachOf(ids, opts.concurrency, say, ctx).then(() => readings(rssOf, opts))
      : null;
    return { conversations, idle, greeted, turned };
  } finally {
    await worker.stop();
  }
}

/**
 * RSS `settleMs` after the work (what the worker holds with the garbage of the work just done), then once settled:
 * V8 collects that garbage and returns it once the worker has been idle a while (35–60 s after a burst of starts or
 * turns, on this machine), so RSS is read every 2 s until it has fallen and then held for `stableMs`, or for
 * `maxSettleMs` at most. The settled figure is what idle conversations cost; the target is about it.
 */
export async function readings(
  rss: () => number,
  opts: Pick<MemoryOptions, 'settleMs' | 'stableMs' | 'maxSettleMs'>,
): Promise<MemoryReading> {
  await sleep(opts.settleMs);
  const busy = rss();
  const started = performance.now();
  let settled = busy;
  let low = busy;
  let lowAt = started;
  for (;;) {
    await sleep(2000);
    settled = rss();
    const now = performance.now();
    if (settled < low - 2 ** 20) [low, lowAt] = [settled, now];
    const fell = low < busy * 0.95;
    if ((fell && now - lowAt >= opts.stableMs) || now - started >= opts.maxSettleMs)
      return { busy, settled, settleMs: Math.round(now - started) };
  }
}

/** Runs `fn` over `items`, `concurrency` at a time. */
async function eachOf(
  items: string[],
  concurrency: number,
  fn: (item: string) => Promise<unknown>,
  ctx: WorkerBenchContext,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        ctx.interrupts.check();
        await fn(items[next++]!);
      }
    }),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
