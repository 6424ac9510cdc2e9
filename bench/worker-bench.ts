// The lean worker (issue 11): the compiled worker (`node dist/worker/main.js`) against the worker run from source as
// `npm run worker` runs it (npm → tsx), each in a process of its own on the same server, started alternately:
// spawn → its "worker on" line, spawn → the first poll the server sees (describeTaskQueue pollers), and its idle
// RSS. Then the compiled worker holding N idle open conversations (each greeted, waiting for the user): RSS with
// the cache size it ships with, with the SDK's default and with traces on, and a text turn on a conversation evicted
// from the cache against one still in it. It compiles the worker first, so the compiled worker is these sources.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { temporal } from '@temporalio/proto';
import { AgentClient } from '../client/agent-client';
import { DEFAULT_WORKFLOW_CACHE } from '../worker/worker-settings';
import type { BenchContext, BenchPart } from './context';
import type { WorkerBenchOptions } from './options';
import { renderWorkerBench, type ConversationsRun, type WorkerStart } from './report/worker-report';
import { PTO_GOAL, TEXT_PROMPT, turnScript } from './scripted-answers';
import { externalServerSettings } from './server';
import { inParallel } from './interrupts';
import { timeIt } from './stats';
import { buildCompiledWorker, spawnWorker, type WorkerMode } from './worker-process';

/** The workers are processes of their own: of the run, this part needs the server and the run's ids only. */
export type WorkerBenchContext = Pick<BenchContext, 'client' | 'namespace' | 'runId' | 'interrupts'>;

/** The SDK's own default cache size for this machine's heap (worker-options.js, reuseV8Context on). */
const SDK_DEFAULT_CACHE = Math.max(
  Math.floor((Math.max(v8.getHeapStatistics().heap_size_limit / 2 ** 20 - 200, 0) * 600) / 1024),
  10,
);

/** The compiled worker built from these sources (once a run), and a fresh folder holding the turn script. */
export async function compiledWorkerFolder(part: string): Promise<{ dir: string; script: string }> {
  process.stderr.write(`bench (${part}): compiling (tsc -p tsconfig.build.json, then the workflow bundle)…\n`);
  await buildCompiledWorker();
  const dir = mkdtempSync(path.join(tmpdir(), `bench-${part}-`));
  const script = path.join(dir, 'script.json');
  writeFileSync(script, JSON.stringify(turnScript));
  return { dir, script };
}

export async function runWorkerBench(
  ctx: WorkerBenchContext,
  temporalAddress: string,
  opts: WorkerBenchOptions,
): Promise<BenchPart> {
  const { dir, script } = await compiledWorkerFolder('worker');
  try {
    let seq = 0;
    const env = (extra: Record<string, string> = {}) => ({
      ...workerEnv(ctx, temporalAddress, dir, script),
      TASK_QUEUE: `bench-worker-${ctx.runId}-${++seq}`,
      ...extra,
    });

    const starts: WorkerStart[] = [];
    for (let i = 0; i < opts.starts; i++) {
      // Alternating, and which goes first alternates too, so drift hits both alike.
      for (const mode of (i % 2 === 0 ? ['tsx', 'compiled'] : ['compiled', 'tsx']) as WorkerMode[]) {
        ctx.interrupts.check();
        process.stderr.write(`bench (worker): start ${i + 1}/${opts.starts}, ${mode}\n`);
        starts.push(await measureStart(ctx, mode, env(), opts.settleMs));
      }
    }

    const runs: ConversationsRun[] = [];
    const sizes = [DEFAULT_WORKFLOW_CACHE.maxCachedWorkflows, ...(opts.compareSdkCache ? [SDK_DEFAULT_CACHE] : [])];
    for (const [k, cache] of sizes.entries()) {
      runs.push(
        await measureConversations(
          ctx,
          env({ WORKER_MAX_CACHED_WORKFLOWS: String(cache) }),
          cache,
          false,
          opts,
          k === 0 ? opts.turns : 0,
        ),
      );
    }
    if (opts.compareTraced) {
      const receiver = await startDroppingReceiver();
      try {
        const cache = DEFAULT_WORKFLOW_CACHE.maxCachedWorkflows;
        runs.push(
          await measureConversations(
            ctx,
            env({ WORKER_MAX_CACHED_WORKFLOWS: String(cache), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
            cache,
            true,
            opts,
            opts.turns,
          ),
        );
      } finally {
        await receiver.close();
      }
    }
    return renderWorkerBench({ starts, runs, sdkDefaultCache: SDK_DEFAULT_CACHE, settleMs: opts.settleMs });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The worker's settings: the bench server, the zero-latency bench script, no MCP endpoints, no .env, its own DATA_DIR. */
export function workerEnv(
  ctx: Pick<BenchContext, 'namespace'>,
  address: string,
  dir: string,
  script: string,
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...externalServerSettings(),
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: ctx.namespace,
    ENV_FILE: '/dev/null',
    DATA_DIR: dir,
    MCP_ENDPOINTS_FILE: path.join(dir, 'no-mcp-endpoints.json'),
    LLM_MODEL: `scripted:${script}`,
    AGENT_GOAL: PTO_GOAL,
    LOG_LEVEL: 'WARN',
  };
}

async function measureStart(
  ctx: WorkerBenchContext,
  mode: WorkerMode,
  env: Record<string, string>,
  settleMs: number,
): Promise<WorkerStart> {
  const worker = await spawnWorker(mode, env);
  try {
    const pollMs = (await firstPoll(ctx, env.TASK_QUEUE!)) - worker.spawnedAt;
    await sleep(settleMs);
    const rss = worker.rss();
    return { mode, logMs: worker.logMs, pollMs, rssWorker: rss.worker, rssTree: rss.tree };
  } finally {
    await worker.stop();
  }
}

/** performance.now() when the server first lists a poller of the queue's workflow tasks. */
export async function firstPoll(ctx: WorkerBenchContext, queue: string, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const asked = performance.now();
    const { pollers } = await ctx.client.workflowService.describeTaskQueue({
      namespace: ctx.namespace,
      taskQueue: { name: queue },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    });
    if (pollers?.length) return asked;
    if (Date.now() > deadline) throw new Error(`no worker polled ${queue} within ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

async function measureConversations(
  ctx: WorkerBenchContext,
  env: Record<string, string>,
  cache: number,
  traced: boolean,
  opts: WorkerBenchOptions,
  turns: number,
): Promise<ConversationsRun> {
  process.stderr.write(
    `bench (worker): ${opts.conversations} conversations on the compiled worker, cache ${cache}${traced ? ', traces on' : ''}\n`,
  );
  const worker = await spawnWorker('compiled', env);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, worker.rss().tree)), 250);
  try {
    await firstPoll(ctx, env.TASK_QUEUE!);
    await sleep(opts.settleMs);
    const idle = worker.rss().tree;
    const agents = new AgentClient(ctx.client, env.TASK_QUEUE!);
    const ids = Array.from({ length: opts.conversations }, (_, i) => `bench-worker-${env.TASK_QUEUE}-${i}`);
    const startedAt = performance.now();
    let done = 0;
    const start = async (id: string) => {
      await agents.start(PTO_GOAL, id);
      if (++done % 250 === 0) process.stderr.write(`  ${done}/${ids.length} started\n`);
    };
    await inParallel(ids, opts.startConcurrency, start, ctx.interrupts);
    const startMs = performance.now() - startedAt;
    await sleep(opts.settleMs);
    const open = worker.rss().tree;
    // The oldest conversations left the cache (when it is smaller than their number); the newest are in it.
    const evicted: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < turns; i++) {
      ctx.interrupts.check();
      evicted.push(await timeIt(() => agents.say(ids[i]!, TEXT_PROMPT)));
      cached.push(await timeIt(() => agents.say(ids[ids.length - 1 - i]!, TEXT_PROMPT)));
    }
    return {
      cache,
      traced,
      conversations: ids.length,
      rssIdle: idle,
      rssOpen: open,
      rssPeak: Math.max(peak, open),
      startMs,
      turnEvictedMs: evicted,
      turnCachedMs: cached,
    };
  } finally {
    clearInterval(sampler);
    await worker.stop();
  }
}

/** An OTLP/HTTP endpoint that accepts spans and drops them: the worker pays for making and sending them, no more. */
async function startDroppingReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) =>
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
