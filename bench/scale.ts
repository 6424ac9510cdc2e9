// Scale on one box (issue 11): agent workers as processes of their own (scale-worker.ts: the worker worker/main.ts
// runs, with the scripted zero-latency model), the load from this process through AgentClient as users' clients send it. (0) `active` conversations
// at a user's pace: each takes a turn, then waits a think time (random, mean `thinkMs`) before the next: the turn time
// a user sees at that load; (1) the same conversations taking turns back to back, at once: the box's saturation
// throughput (turn time there is queueing: conversations / throughput); (2) `starts`
// conversations started, each taking one turn, `startConcurrency` at a time. Around each phase, the CPU time of the
// dev server, the worker process and this process: where the time goes. Counts: options.ts (ScaleOptions). (One
// worker process against two on one task queue was measured until settled: bench/README.md.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentClient } from '../client/agent-client';
import { startProcess } from '../testkit/process';
import type { BenchContext, BenchPart } from './context';
import { inParallel } from './interrupts';
import { CpuMeter, ownCpuMs, processCpuMs } from './proc';
import type { ScaleOptions } from './options';
import { scaleJson, scaleText, type Phase } from './report/scale-report';
import { PTO_GOAL, TEXT_PROMPT, TEXT_REPLY, turnScript } from './scripted-answers';
import { externalServerSettings, type BenchServer } from './server';
import { seeded } from './seeded';

/** Worker processes serving one task queue, with a client for it. */
interface Pool {
  queue: string;
  workers: WorkerProcess[];
  agents: AgentClient;
}

interface WorkerProcess {
  pid: number;
  /** SIGTERM (a graceful stop), then waits for it to exit. */
  stop(): Promise<void>;
}

const ROOT = path.join(__dirname, '..');

export async function runScaleBench(ctx: BenchContext, server: BenchServer, opts: ScaleOptions): Promise<BenchPart> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'));
  const pools: Pool[] = [];
  try {
    const script = path.join(dir, 'script.json');
    writeFileSync(script, JSON.stringify(turnScript));
    const bundle = path.join(dir, 'workflow-bundle.js');
    writeFileSync(bundle, ctx.agentBundle.code);
    process.stderr.write('bench (scale): starting a worker process…\n');
    const pool = async (name: string, count: number): Promise<Pool> => {
      const queue = `bench-scale-${name}-${ctx.runId}`;
      const env = workerEnv(server, queue, dir, script);
      const p: Pool = { queue, workers: [], agents: new AgentClient(ctx.client, queue) };
      pools.push(p);
      // All settled before going on, so that whatever started is in the pool when the finally below stops it.
      const started = await Promise.allSettled(Array.from({ length: count }, () => spawnWorker(env, bundle)));
      for (const s of started) if (s.status === 'fulfilled') p.workers.push(s.value);
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      return p;
    };
    const one = await pool('one', 1);
    const meter = (p: Pool) =>
      new CpuMeter({
        server: () => (server.pid ? processCpuMs(server.pid) : NaN),
        workers: () => p.workers.reduce((sum, w) => sum + processCpuMs(w.pid), 0),
        load: ownCpuMs,
      });

    const paced: { thinkMs: number; phase: Phase }[] = [];
    for (const thinkMs of opts.thinkMs) {
      process.stderr.write(
        `bench (scale): ${opts.active} conversations, a turn each every ~${thinkMs} ms, for ${opts.pacedSeconds} s\n`,
      );
      paced.push({ thinkMs, phase: await pacedPhase(ctx, one, meter(one), opts, thinkMs) });
    }

    process.stderr.write(`bench (scale): ${opts.active} conversations taking ${opts.turns} turns each at once\n`);
    const active = await activePhase(ctx, one, meter(one), opts, 'active');

    process.stderr.write(
      `bench (scale): ${opts.starts} conversations started and taking a turn, ${opts.startConcurrency} at a time\n`,
    );
    const starts = await startsPhase(ctx, one, meter(one), opts);

    const facts = { opts, serverPid: server.pid, cpus: os.cpus().length };
    return {
      text: scaleText(facts, paced, active, starts),
      figures: scaleJson(facts, paced, active, starts),
    };
  } finally {
    await Promise.all(pools.flatMap((p) => p.workers.map((w) => w.stop())));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A scale-worker.ts process (from source, through tsx) running the workflow bundle in file `bundle`, once it polls. */
async function spawnWorker(env: Record<string, string>, bundle: string): Promise<WorkerProcess> {
  const worker = await startProcess(process.execPath, ['--require', 'tsx/cjs', 'bench/scale-worker.ts', bundle], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    ready: /worker on /,
    what: 'a scale worker',
    timeoutMs: 180_000,
  });
  return { pid: worker.pid, stop: () => worker.end('SIGTERM') };
}

/** `opts.active` conversations (opened first, untimed), then each takes `opts.turns` turns back to back, all at once. */
async function activePhase(
  ctx: BenchContext,
  pool: Pool,
  meter: CpuMeter,
  opts: ScaleOptions,
  tag: string,
): Promise<Phase> {
  const ids = Array.from({ length: opts.active }, (_, i) => `bench-scale-${tag}-${pool.queue}-${i}`);
  await inParallel(
    ids,
    Math.min(opts.startConcurrency, ids.length),
    async (id) => void (await pool.agents.start(PTO_GOAL, id)),
    ctx.interrupts,
  );
  const turns: number[] = [];
  meter.start();
  const began = performance.now();
  await Promise.all(
    ids.map(async (id) => {
      for (let t = 0; t < opts.turns; t++) {
        ctx.interrupts.check();
        const at = performance.now();
        checkReply(await pool.agents.say(id, TEXT_PROMPT));
        turns.push(performance.now() - at);
      }
    }),
  );
  const wallMs = performance.now() - began;
  return { wallMs, operations: turns.length, latenciesMs: turns, cpuMs: meter.stop() };
}

/**
 * `opts.active` conversations (opened first, untimed) at a user's pace for `opts.pacedSeconds`: each waits a think
 * time (exponential, mean `thinkMs`, from a seeded generator so runs compare), takes a turn, and again.
 */
async function pacedPhase(
  ctx: BenchContext,
  pool: Pool,
  meter: CpuMeter,
  opts: ScaleOptions,
  thinkMs: number,
): Promise<Phase> {
  const ids = Array.from({ length: opts.active }, (_, i) => `bench-scale-paced${thinkMs}-${pool.queue}-${i}`);
  await inParallel(
    ids,
    Math.min(opts.startConcurrency, ids.length),
    async (id) => void (await pool.agents.start(PTO_GOAL, id)),
    ctx.interrupts,
  );
  const random = seeded(thinkMs);
  const think = () => -Math.log(1 - random()) * thinkMs;
  const turns: number[] = [];
  meter.start();
  const began = performance.now();
  const until = began + opts.pacedSeconds * 1000;
  await Promise.all(
    ids.map(async (id) => {
      // Spread over the first think time, as users arriving would be, not all at the first instant.
      await sleep(random() * thinkMs);
      while (performance.now() < until) {
        ctx.interrupts.check();
        const at = performance.now();
        checkReply(await pool.agents.say(id, TEXT_PROMPT));
        turns.push(performance.now() - at);
        await sleep(think());
      }
    }),
  );
  const wallMs = performance.now() - began;
  return { wallMs, operations: turns.length, latenciesMs: turns, cpuMs: meter.stop() };
}

/** `opts.starts` conversations, each started (its greeting awaited) and then taking one turn. */
async function startsPhase(
  ctx: BenchContext,
  pool: Pool,
  meter: CpuMeter,
  opts: ScaleOptions,
): Promise<Phase & { turnMs: number[] }> {
  const ids = Array.from({ length: opts.starts }, (_, i) => `bench-scale-start-${pool.queue}-${i}`);
  const whole: number[] = [];
  const turnMs: number[] = [];
  meter.start();
  const began = performance.now();
  await inParallel(
    ids,
    opts.startConcurrency,
    async (id) => {
      const at = performance.now();
      await pool.agents.start(PTO_GOAL, id);
      const said = performance.now();
      checkReply(await pool.agents.say(id, TEXT_PROMPT));
      turnMs.push(performance.now() - said);
      whole.push(performance.now() - at);
    },
    ctx.interrupts,
  );
  const wallMs = performance.now() - began;
  return { wallMs, operations: ids.length, latenciesMs: whole, turnMs, cpuMs: meter.stop() };
}

function checkReply(reply: { reply: string }): void {
  if (reply.reply !== TEXT_REPLY) throw new Error(`scale: unexpected reply ${JSON.stringify(reply)}`);
}

/** A worker process's settings: the bench server, the zero-latency bench script, no MCP endpoints, no .env. */
function workerEnv(server: BenchServer, queue: string, dir: string, script: string): Record<string, string> {
  return {
    ...externalServerSettings(),
    TEMPORAL_ADDRESS: server.info.address,
    TEMPORAL_NAMESPACE: server.namespace,
    TASK_QUEUE: queue,
    ENV_FILE: '/dev/null',
    DATA_DIR: path.join(dir, queue),
    MCP_ENDPOINTS_FILE: path.join(dir, 'no-mcp-endpoints.json'),
    LLM_MODEL: `scripted:${script}`,
    AGENT_GOAL: PTO_GOAL,
    VALIDATE_PROMPTS: 'false',
  };
}
