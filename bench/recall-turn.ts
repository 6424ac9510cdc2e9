// What recall adds to a turn: the same text turn (the zero-latency scripted model, validation off: one planning
// activity) from a client, on a worker with memory on, its owner holding about a hundred memories, in each database,
// against a worker with MEMORY=off; interleaved round-robin, conversations rotated alike. Each turn's server timeline
// and, inside the planning activity, its time before the model was asked (where recall runs), so a difference can be
// placed; the recall itself is timed inside the worker, and every model request of a memory-on turn must carry
// memories (of an off turn: none), or the part fails.
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { performance } from 'node:perf_hooks';
import { ScriptedModel } from '../activities/llm/scripted-model';
import type { MemoryStore } from '../memory/memory-store';
import { LazyMemoryStore } from '../memory/open-store';
import { agentConversations } from './agent-conversation';
import type { BenchContext } from './context';
import type { UpdateSpan } from './history-timeline';
import { timedModel, spanStepTimes, type ModelCallTimes, type StepTimes } from './model-window';
import type { BenchStore, Database } from './recall-stores';
import { roundRobin } from './round-robin';
import { PTO_GOAL } from './scripted-answers';
import { SessionRotation } from './session-rotation';
import { createBenchAgentWorker, runWorkers } from './workers';

const PROMPT = 'Which days do I like to take off, and who should approve my leave?';
const REPLY = 'Fridays; ask your manager.';
const SCRIPT = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi!' } },
    { user: '^Which days', reply: { text: REPLY } },
  ],
};

export interface RecallTurnOptions {
  owner: string;
  warmup: number;
  iterations: number;
  turnsPerConversation: number;
}

export interface TurnWay {
  key: string;
  name: string;
  database?: Database;
  /** Client-observed turns, ms. */
  samples: number[];
  /** Each timed turn's timeline. */
  steps: TurnSteps[];
  /** The recall query inside the planning activity (every call, greetings and warm-up included), ms. */
  recallMs: number[];
  /** The store's note of which memories a turn was shown (not awaited by the turn), where it keeps one, ms. */
  usedMs: number[];
  /** Memories each model request carried. */
  shown: number[];
}

/** A turn's timeline, and of its workflow tasks' time on the worker, the task's that took the plan's result. */
export type TurnSteps = StepTimes & { wftAfterPlan: number };

export async function measureRecallTurns(
  ctx: BenchContext,
  stores: BenchStore[],
  opts: RecallTurnOptions,
): Promise<TurnWay[]> {
  const ways = [
    ...stores.map((s) => ({ key: `on-${s.database}`, name: `memory on, ${s.database}`, store: s })),
    { key: 'off', name: 'MEMORY=off', store: undefined },
  ];
  const made = await Promise.all(
    ways.map(async (w) => {
      const calls: ModelCallTimes[] = [];
      const shown: number[] = [];
      const model = timedModel(notingMemories(new ScriptedModel(SCRIPT), shown), calls);
      const resolved = { model, provider: 'scripted' as const, modelId: 'scripted', description: 'bench' };
      const noted = w.store && new NotedStore(w.store.lazy);
      const env = {
        AGENT_GOAL: PTO_GOAL,
        VALIDATE_PROMPTS: 'false',
        MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
        MEMORY: w.store ? 'on' : 'off',
      };
      const agent = await createBenchAgentWorker(ctx, `recall-${w.key}`, env, resolved, noted);
      return { ...w, agent, calls, shown, noted };
    }),
  );
  const workers = runWorkers(
    ctx,
    made.map((m) => m.agent.worker),
    made.map((m) => m.agent.close),
    'a recall bench worker',
  );
  const rotations = made.map(
    (m) =>
      new SessionRotation(
        { turnsPerSession: opts.turnsPerConversation, warmupApart: false },
        agentConversations(ctx.client, m.agent.worker.options.taskQueue, `${ctx.runId}-${m.key}`, {
          name: `recall turn (${m.name})`,
          slug: 'recall',
          goalId: PTO_GOAL,
          prompt: PROMPT,
          reply: REPLY,
          owner: opts.owner,
        }),
      ),
  );
  try {
    process.stderr.write(`bench (recall): ${opts.warmup} + ${opts.iterations} turns per way, interleaved\n`);
    await Promise.race([
      roundRobin(rotations, {
        warmup: opts.warmup,
        iterations: opts.iterations,
        interrupts: ctx.interrupts,
        progress: { unit: 'turns each', every: Math.max(1, Math.round((opts.warmup + opts.iterations) / 4)) },
      }),
      workers.died,
    ]);
    for (const r of rotations) await r.finish();
  } catch (err) {
    await Promise.all(rotations.map((r) => r.abort()));
    throw err;
  } finally {
    await workers.stop();
  }
  return made.map((m, i) => {
    const check = m.store ? m.shown.every((n) => n > 0) : m.shown.every((n) => n === 0);
    if (!m.shown.length || !check)
      throw new Error(`recall turn (${m.name}): memories per model request ${JSON.stringify(m.shown)}`);
    const spans = rotations[i]!.closed.flatMap((c) => c.timedTurns);
    return {
      key: m.key,
      name: m.name,
      ...(m.store ? { database: m.store.database } : {}),
      samples: rotations[i]!.samples,
      steps: spans.map((s) => ({ ...spanStepTimes(s, m.calls), wftAfterPlan: afterPlan(s) })),
      recallMs: m.noted?.timings.recall ?? [],
      usedMs: m.noted?.timings.used ?? [],
      shown: m.shown,
    };
  });
}

/** The turn's workflow tasks woken by its activity's completion (the plan's result): their time on the worker. */
function afterPlan(span: UpdateSpan): number {
  return span.workflowTasks
    .filter((t) => t.wokenBy === 'activityTaskCompleted' && t.startedAt !== undefined && t.completedAt !== undefined)
    .reduce((sum, t) => sum + t.completedAt! - t.startedAt!, 0);
}

/** The part's store as the worker is handed it, the recall (and the note of which memories a turn used, where the
 * store keeps one) timed by name; opening and closing stay the part's. */
class NotedStore extends LazyMemoryStore {
  readonly timings: Record<string, number[]> = { recall: [], used: [] };

  constructor(private readonly inner: LazyMemoryStore) {
    super(inner.settings);
  }

  override get started(): boolean {
    return this.inner.started;
  }

  override async store(): Promise<MemoryStore> {
    const store = await this.inner.store();
    return new Proxy(store, {
      get: (target, name, receiver) => {
        const value: unknown = Reflect.get(target, name, receiver);
        const times = typeof name === 'string' ? this.timings[name] : undefined;
        if (!times || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const began = performance.now();
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            times.push(performance.now() - began);
          }
        };
      },
    });
  }

  override async close(): Promise<void> {}
}

/** `model`, noting how many memories each request's system prompt carries (core/memory.ts's recallBlock lines). */
function notingMemories(model: LanguageModelV3, shown: number[]): LanguageModelV3 {
  const note = (o: LanguageModelV3CallOptions) => {
    const system = o.prompt.flatMap((m) => (m.role === 'system' ? [m.content] : [])).join('\n');
    shown.push((system.match(/^- \[mem_[0-9a-f]{16}\]/gm) ?? []).length);
  };
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (o) => (note(o), model.doGenerate(o)),
    doStream: (o) => (note(o), model.doStream(o)),
  };
}
