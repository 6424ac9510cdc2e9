// The HTTP API benchmark (issue 10), after the others on the same server: the model's first token → the SSE `token`
// event at a client, with the stream bus in process (API and worker together, as `npm start`) and in Redis (the API
// alone in its own process), the model a local streaming Chat Completions server with a fixed time to first token.
// Counts: options.ts (ApiOptions). Fan-out to many subscribers and the API's overhead on a turn were finished
// investigations: their figures are in bench/README.md.
import { performance } from 'node:perf_hooks';
import { startApi } from '../api/server';
import { DEFAULT_BODY_LIMIT, type ApiSettings } from '../api/api-settings';
import { AgentClient } from '../client/agent-client';
import { MemoryStreamBus } from '../stream';
import { RedisStreamBus } from '../stream/redis-bus';
import { MISSING_REDIS, startRedis } from '../testkit/redis-server';
import { startApiProcess } from './api-process';
import type { ApiStack } from './api-stack';
import type { BenchContext, BenchPart } from './context';
import type { ApiOptions } from './options';
import { renderApiBench } from './report/api-report';
import { firstTokenTurns } from './scenarios/api-first-token';
import { PTO_GOAL } from './scripted-answers';
import { startStreamingModel } from './streaming-model';
import { TimedBus } from './timed-bus';
import { createStreamingBenchAgentWorker, runWorkers } from './workers';

/** What a measurement leaves to close, run in reverse order at the end. */
type Later = (cleanup: () => Promise<void>) => void;

const API_SETTINGS: ApiSettings = {
  port: 0,
  host: '127.0.0.1',
  keys: null,
  bodyLimitBytes: DEFAULT_BODY_LIMIT,
  corsOrigins: [],
};

export async function runApiBench(ctx: BenchContext, temporalAddress: string, opts: ApiOptions): Promise<BenchPart> {
  const started = performance.now();
  const cleanups: (() => Promise<void>)[] = [];
  const later: Later = (c) => cleanups.push(c);
  const died: Promise<never>[] = [];
  const guarded = <T>(work: Promise<T>) => Promise.race([work, ...died]);
  try {
    const model = await startStreamingModel(opts.ttftMs, opts.chunkMs);
    later(model.close);
    const modelEnv = {
      AGENT_GOAL: PTO_GOAL,
      VALIDATE_PROMPTS: 'false',
      LLM_MODEL: 'openai-compatible:bench',
      LLM_KEY: 'bench-key-not-secret',
      LLM_BASE_URL: model.baseUrl,
    };
    const stacks = [await inProcessStack(ctx, modelEnv, later, died)];
    let redisNote: string | undefined;
    try {
      stacks.push(await redisStack(ctx, temporalAddress, modelEnv, later, died));
    } catch (err) {
      const message = (err as Error).message;
      redisNote =
        message === MISSING_REDIS
          ? `Redis rows skipped: ${MISSING_REDIS}.`
          : `Redis rows skipped: ${message.split('\n')[0]}`;
      process.stderr.write(`bench (API): ${redisNote}\n`);
    }

    process.stderr.write(
      `bench (API): ${opts.warmup} warm-up + ${opts.firstTokenTurns} timed first-token turns per bus (${stacks.map((s) => s.label).join(', ')})\n`,
    );
    const firstToken = await guarded(
      firstTokenTurns(stacks, model, {
        warmup: opts.warmup,
        iterations: opts.firstTokenTurns,
        runId: ctx.runId,
        interrupts: ctx.interrupts,
      }),
    );

    return renderApiBench({ opts, firstToken, redisNote, measureMs: performance.now() - started });
  } catch (err) {
    ctx.interrupts.check();
    throw err;
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
}

/** The API and the worker in this process sharing an in-memory bus, as `npm start` runs them. */
async function inProcessStack(
  ctx: BenchContext,
  env: Record<string, string>,
  later: Later,
  died: Promise<never>[],
): Promise<ApiStack> {
  const bus = new TimedBus(new MemoryStreamBus());
  later(() => bus.close());
  const agent = await createStreamingBenchAgentWorker(ctx, 'api-stream', env, bus);
  const running = runWorkers(ctx, [agent.worker], [agent.close], 'the API streaming worker');
  later(running.stop);
  died.push(running.died);
  const api = await startApi({
    agents: new AgentClient(ctx.client, agent.worker.options.taskQueue),
    bus,
    settings: API_SETTINGS,
    defaultGoal: PTO_GOAL,
  });
  later(api.close);
  return {
    label: 'in-process',
    url: api.url,
    bus,
  };
}

/** A throwaway Redis; the worker here publishes to it; the API runs alone in a process of its own (api/main.ts). */
async function redisStack(
  ctx: BenchContext,
  temporalAddress: string,
  env: Record<string, string>,
  later: Later,
  died: Promise<never>[],
): Promise<ApiStack> {
  const redis = await startRedis();
  later(redis.stop);
  const bus = new TimedBus(new RedisStreamBus(redis.url));
  later(() => bus.close());
  const agent = await createStreamingBenchAgentWorker(ctx, 'api-redis', env, bus);
  const running = runWorkers(ctx, [agent.worker], [agent.close], 'the API Redis worker');
  later(running.stop);
  died.push(running.died);
  const api = await startApiProcess({
    temporalAddress,
    namespace: ctx.namespace,
    taskQueue: agent.worker.options.taskQueue,
    redisUrl: redis.url,
    goalId: PTO_GOAL,
  });
  later(api.stop);
  return {
    label: 'Redis',
    url: api.url,
    bus,
  };
}
