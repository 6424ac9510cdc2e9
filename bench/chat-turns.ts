// The chat-turn benchmark: the floor and three agent turn shapes, interleaved turn by turn. The floor has a worker
// of its own; the agent turns share two agent workers built as production builds them, one per VALIDATE_PROMPTS.
// The workers stay up, idle, through the parts that follow (as they always have, so those parts' numbers compare).
import { performance } from 'node:perf_hooks';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { agentConversations } from './agent-conversation';
import type { BenchContext, BenchPart } from './context';
import { createFloorActivities } from './floor-activities';
import type { TurnOptions } from './options';
import { renderChatTurns } from './report/chat-turns-report';
import { roundRobin } from './round-robin';
import type { ChatTurnSpec, TurnScenario } from './scenario';
import { floorScenario } from './scenarios/floor';
import { textTurn } from './scenarios/text-turn';
import { toolTurn } from './scenarios/tool-turn';
import { validatedTextTurn } from './scenarios/validated-text-turn';
import { unversionedTextTurn } from './scenarios/unversioned-text-turn';
import { PTO_GOAL, turnScript } from './scripted-answers';
import { SessionRotation } from './session-rotation';
import { createBenchAgentWorker, runWorkers, type RunningWorkers } from './workers';

/** In table order; the floor comes first (the others are compared with it). */
const AGENT_TURNS: ChatTurnSpec[] = [textTurn, validatedTextTurn, toolTurn, unversionedTextTurn];

interface ChatTurnWorkers {
  floorQueue: string;
  agentQueue(spec: ChatTurnSpec): string;
  running: RunningWorkers;
}

/** `keep` is handed the workers' stop, for the end of the run. */
export async function runChatTurns(
  ctx: BenchContext,
  floorBundle: WorkflowBundleWithSourceMap,
  opts: TurnOptions,
  keep: (stop: () => Promise<void>) => void,
): Promise<BenchPart> {
  const workers = await startChatTurnWorkers(ctx, floorBundle);
  keep(workers.running.stop);
  const scenarios = chatTurnScenarios(ctx, workers, opts);
  try {
    const measureMs = await measureChatTurns(ctx, scenarios, opts, workers.running.died);
    return renderChatTurns(opts, scenarios, measureMs);
  } catch (err) {
    await Promise.all(scenarios.map((s) => s.sampler.abort()));
    throw err;
  }
}

async function startChatTurnWorkers(
  ctx: BenchContext,
  floorBundle: WorkflowBundleWithSourceMap,
): Promise<ChatTurnWorkers> {
  const floorQueue = `bench-floor-${ctx.runId}`;
  const floor = await Worker.create({
    connection: ctx.connection,
    namespace: ctx.namespace,
    taskQueue: floorQueue,
    workflowBundle: floorBundle,
    activities: createFloorActivities(),
  });
  const agent = (queue: string, validate: boolean, versioning = 'on') =>
    createBenchAgentWorker(
      ctx,
      queue,
      { AGENT_GOAL: PTO_GOAL, VALIDATE_PROMPTS: String(validate), WORKER_VERSIONING: versioning },
      turnScript,
    );
  const plain = await agent('agent', false);
  const validating = await agent('agent-validating', true);
  const unversioned = await agent('agent-unversioned', false, 'off');
  const all = [plain, validating, unversioned];
  return {
    floorQueue,
    agentQueue: (spec) =>
      (spec.unversioned ? unversioned : spec.validatePrompts ? validating : plain).worker.options.taskQueue,
    running: runWorkers(
      ctx,
      [floor, ...all.map((a) => a.worker)],
      all.map((a) => a.close),
      'a worker',
    ),
  };
}

function chatTurnScenarios(ctx: BenchContext, workers: ChatTurnWorkers, opts: TurnOptions): TurnScenario[] {
  const policy = { turnsPerSession: opts.turnsPerConversation, warmupApart: false };
  const agentTurn = (spec: ChatTurnSpec): TurnScenario => ({
    name: spec.name,
    description: spec.description,
    activitiesPerTurn: spec.activitiesPerTurn,
    sampler: new SessionRotation(policy, agentConversations(ctx.client, workers.agentQueue(spec), ctx.runId, spec)),
  });
  return [floorScenario(ctx.client, workers.floorQueue, ctx.runId, policy), ...AGENT_TURNS.map(agentTurn)];
}

/** Runs the scenarios and closes their last workflows; returns how long that took, in ms. */
async function measureChatTurns(
  ctx: BenchContext,
  scenarios: TurnScenario[],
  opts: TurnOptions,
  died: Promise<never>,
): Promise<number> {
  process.stderr.write(
    `bench: ${opts.warmup} warm-up + ${opts.iterations} timed turns per scenario, ${scenarios.length} scenarios interleaved\n`,
  );
  const started = performance.now();
  const samplers = scenarios.map((s) => s.sampler);
  const measure = async () => {
    await roundRobin(samplers, {
      ...opts,
      interrupts: ctx.interrupts,
      progress: { unit: 'turns per scenario', every: 50 },
    });
    for (const s of samplers) await s.finish();
  };
  await Promise.race([measure(), died]);
  return performance.now() - started;
}
