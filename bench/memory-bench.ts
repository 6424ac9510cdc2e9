// Memory per cached conversation (issue 29, item 3): the compiled worker, its cache big enough to hold them all,
// holding N idle conversations: greeted (the agent's first answer, then waiting for the user), then after a few turns
// each (the PTO balance question: a tool turn; a text turn). What each costs is the worker's RSS over its idle RSS
// (after one conversation went through the same turns, so what every worker pays once — the workflow context, code
// compiled — is not counted per conversation), divided by N. Each N in a worker process of its own, `runs` times:
// min / median / max, the median against the target. RSS is read twice after each step: soon after, with the
// garbage of the work just done, and after a full garbage collection (see readings()).
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { AgentClient } from '../client/agent-client';
import type { BenchPart } from './context';
import { inParallel } from './interrupts';
import type { MemoryOptions } from './options';
import { renderMemoryBench, type MemoryReading, type MemoryRun } from './report/memory-report';
import { PTO_GOAL, TEXT_PROMPT, TOOL_PROMPT } from './scripted-answers';
import { performance } from 'node:perf_hooks';
import { compiledWorkerFolder, firstPoll, spawnWorker, workerEnv, type WorkerBenchContext } from './worker-process';

/** The turns each conversation takes after its greeting, in this order, again from the first for more. */
export const TURNS = [TOOL_PROMPT, TEXT_PROMPT];
const turnsOf = (count: number) => Array.from({ length: count }, (_, i) => TURNS[i % TURNS.length]!);

export async function runMemoryBench(
  ctx: WorkerBenchContext,
  temporalAddress: string,
  opts: MemoryOptions,
): Promise<BenchPart> {
  const { dir, script } = await compiledWorkerFolder('memory');
  try {
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

/** The worker with the bench's hook (heap-hook.cjs) loaded: where its files go, and how many collections it made. */
interface HookedWorker {
  pid: number;
  rss(): number;
  prefix: string;
  collections: number;
}

async function holdConversations(
  ctx: WorkerBenchContext,
  env: Record<string, string>,
  conversations: number,
  opts: MemoryOptions,
): Promise<MemoryRun> {
  const prefix = path.join(env.DATA_DIR!, env.TASK_QUEUE!);
  const spawned = await spawnWorker({
    ...env,
    NODE_OPTIONS: `--require=${path.join(__dirname, 'heap-hook.cjs')}`,
    HEAP_HOOK_PREFIX: prefix,
  });
  const worker: HookedWorker = { pid: spawned.pid, rss: () => spawned.rss().worker, prefix, collections: 0 };
  try {
    await firstPoll(ctx, env.TASK_QUEUE!);
    const agents = new AgentClient(ctx.client, env.TASK_QUEUE!);
    const turns = turnsOf(opts.turns);
    const warm = `${env.TASK_QUEUE}-warm`;
    await agents.start(PTO_GOAL, warm);
    for (const prompt of turns) await agents.say(warm, prompt);
    const idle = await readings(worker, opts);
    const ids = Array.from({ length: conversations }, (_, i) => `${env.TASK_QUEUE}-${i}`);
    await inParallel(ids, opts.concurrency, (id) => agents.start(PTO_GOAL, id), ctx.interrupts);
    const greeted = await readings(worker, opts);
    const say = async (id: string) => {
      for (const prompt of turns) await agents.say(id, prompt);
    };
    const turned = turns.length
      ? await inParallel(ids, opts.concurrency, say, ctx.interrupts).then(() => readings(worker, opts))
      : null;
    return { conversations, idle, greeted, turned };
  } finally {
    await spawned.stop();
  }
}

/**
 * RSS `settleMs` after the work: what the worker holds with the garbage of the work just done; then after a full
 * garbage collection of both its threads (heap-hook.cjs, V8's collection for low memory): what the conversations
 * hold. The worker gets there by itself once idle a while (V8 collects and hands back the garbage 35–60 s after a
 * burst of starts or turns, on this machine: 182, 234 and 268 MB collected against 176, 234 and 267 MB after 90 s idle,
 * at the three points of a 200-conversation run); the target is about the collected figure.
 */
async function readings(worker: HookedWorker, opts: MemoryOptions): Promise<MemoryReading> {
  await sleep(opts.settleMs);
  const busy = worker.rss();
  const started = performance.now();
  const file = `${worker.prefix}-gc-${++worker.collections}.json`;
  process.kill(worker.pid, 'SIGURG');
  while (!existsSync(file)) await sleep(100);
  return { busy, collected: worker.rss(), collectMs: Math.round(performance.now() - started) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
