// The benchmark's workers. Agent workers are built exactly as production builds them (createAgentWorker), with the
// zero-latency scripted model, each on a task queue of its own; a worker that stops on its own (a fatal error)
// fails the run rather than leaving an update waiting forever. Not testkit/temporal.ts's startWorker: these read the
// project's MCP registry as production does, and many run at once, raced by `died`.
import type { Worker } from '@temporalio/worker';
import type { ResolvedModel } from '../activities/llm/model';
import type { ScriptInput } from '../activities/llm/scripted-model';
import type { LazyMemoryStore } from '../memory/open-store';
import type { StreamBus } from '../stream/bus';
import { createAgentWorker, type AgentWorker } from '../worker/create-worker';
import { readWorkerSettings, type WorkerSettings } from '../worker/worker-settings';
import { scripted } from '../testkit/temporal';
import type { BenchContext } from './context';

/**
 * An agent worker on task queue bench-<queue>-<run id>, configured by `env` as the real worker is, its model the
 * scripted one on `script` (or a model of the caller's); its memory store the one given, as npm start hands the
 * API's to its worker (the caller closes it), else the one the settings name.
 */
export function createBenchAgentWorker(
  ctx: BenchContext,
  queue: string,
  env: Record<string, string>,
  model: ScriptInput | ResolvedModel,
  memory?: LazyMemoryStore,
): Promise<AgentWorker> {
  return createAgentWorker({
    connection: ctx.connection,
    namespace: ctx.namespace,
    settings: ownQueue(readWorkerSettings(env as NodeJS.ProcessEnv), `bench-${queue}-${ctx.runId}`),
    model: 'rules' in model ? scripted(model) : model,
    workflowBundle: ctx.agentBundle,
    ...(memory ? { memory } : {}),
  });
}

/**
 * An agent worker whose model comes from `env` as a real worker's does (LLM_MODEL, LLM_BASE_URL…), publishing the
 * reply being written to `streamBus`; no MCP endpoints.
 */
export function createStreamingBenchAgentWorker(
  ctx: BenchContext,
  queue: string,
  env: Record<string, string>,
  streamBus: StreamBus,
): Promise<AgentWorker> {
  const settings = readWorkerSettings({
    MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
    ...env,
  } as NodeJS.ProcessEnv);
  return createAgentWorker({
    connection: ctx.connection,
    namespace: ctx.namespace,
    settings: ownQueue(settings, `bench-${queue}-${ctx.runId}`),
    workflowBundle: ctx.agentBundle,
    streamBus,
  });
}

/** A bench worker's own task queue, and its own deployment (versioned workers): never the one a real worker of the
 * server (TEMPORAL_ADDRESS) belongs to, whose current build a bench worker could otherwise make its own. */
function ownQueue(settings: WorkerSettings, taskQueue: string): WorkerSettings {
  return {
    ...settings,
    taskQueue,
    versioning: settings.versioning && { ...settings.versioning, deployment: taskQueue },
  };
}

export interface RunningWorkers {
  /** Rejects as soon as any of the workers stops; race the measuring against it. */
  died: Promise<never>;
  /** Shuts the workers down, waits for them, then runs `closers` (MCP sessions). Safe to call twice. */
  stop(): Promise<void>;
}

export function runWorkers(
  ctx: BenchContext,
  workers: Worker[],
  closers: (() => Promise<void>)[],
  what: string,
): RunningWorkers {
  const runs = workers.map((w) => w.run());
  const died: Promise<never> = Promise.race(runs).then(
    () =>
      Promise.reject(
        new Error(
          ctx.interrupts.cause ? `interrupted (${ctx.interrupts.cause})` : `${what} stopped during the benchmark`,
        ),
      ),
    (err: unknown) => Promise.reject(err),
  );
  died.catch(() => undefined);
  return {
    died,
    async stop() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await Promise.allSettled(runs);
      for (const close of closers) await close().catch(() => undefined);
    },
  };
}
