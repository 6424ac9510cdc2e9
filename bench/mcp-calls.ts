// One MCP tool call (fx convert) measured three ways, interleaved round-robin: a durable turn calling it (a), the
// native-tool turn on the same worker (a'), and the bare SDK call on an open session (b). Finished investigations
// (a beside a hung endpoint, callMcpTool() in-process, spawning the server per call) are figures in bench/README.md.
import { performance } from 'node:perf_hooks';
import type { AgentWorker } from '../worker/create-worker';
import { agentConversations } from './agent-conversation';
import type { BenchContext } from './context';
import { fxEntry, spawnFx, writeRegistry } from './fx';
import { activityRunTimes } from './history-timeline';
import type { McpOptions } from './options';
import { roundRobin } from './round-robin';
import type { CallScenario } from './scenario';
import { sdkCall } from './scenarios/mcp-sdk-call';
import { mcpToolTurn, nativeToolTurn, type McpTurnSpec } from './scenarios/mcp-tool-turn';
import { MCP_GOAL, mcpScript } from './scripted-answers';
import { SessionRotation } from './session-rotation';
import { createBenchAgentWorker, runWorkers } from './workers';

export interface McpCallResults {
  /** a, a', b: the table's rows. */
  scenarios: CallScenario[];
  /** For the turns (a, a'): each activity's run time in the timed turns, by activity type. */
  activityMs: Record<string, Record<string, number[]>>;
  /** For the turns: conversations started, warm-up ones included. */
  conversations: Record<string, number>;
  ms: number;
}

/** `cleanups` collects what stays open (worker, pool, session) for the caller to close, also on failure. */
export async function benchMcpCalls(
  ctx: BenchContext,
  opts: McpOptions,
  dir: string,
  cleanups: (() => Promise<void>)[],
): Promise<McpCallResults> {
  // The worker: goal_general, one fx endpoint; native-tool conversations name goal_hr_pto.
  const registry = writeRegistry(dir, 'fx-worker.json', { fx: fxEntry });
  const env = { AGENT_GOAL: MCP_GOAL, VALIDATE_PROMPTS: 'false', MCP_ENDPOINTS_FILE: registry };
  const agent = await createBenchAgentWorker(ctx, 'mcp', env, mcpScript);
  const worker = runWorkers(ctx, [agent.worker], [agent.close], 'the MCP bench worker');
  cleanups.push(worker.stop);

  const policy = { turnsPerSession: opts.turnsPerConversation, warmupApart: true };
  const turn = (spec: McpTurnSpec, on: AgentWorker): CallScenario<SessionRotation> => ({
    key: spec.key,
    name: spec.name,
    description: spec.description,
    sampler: new SessionRotation(policy, agentConversations(ctx.client, on.worker.options.taskQueue, ctx.runId, spec)),
  });
  const turns = [turn(mcpToolTurn, agent), turn(nativeToolTurn, agent)];
  const direct = spawnFx();
  cleanups.push(() => direct.client.close());
  await direct.client.connect(direct.transport);
  const interleaved = [...turns, sdkCall(direct.client)];

  const t = performance.now();
  await measureInterleaved(ctx, opts, interleaved, turns, worker.died);
  const ms = performance.now() - t;
  await worker.stop();

  return {
    scenarios: interleaved,
    activityMs: Object.fromEntries(
      turns.map((s) => [s.key, activityRunTimes(s.sampler.closed.flatMap((c) => c.timedTurns))]),
    ),
    conversations: Object.fromEntries(turns.map((s) => [s.key, s.sampler.opened])),
    ms,
  };
}

async function measureInterleaved(
  ctx: BenchContext,
  opts: McpOptions,
  scenarios: CallScenario[],
  turns: CallScenario<SessionRotation>[],
  died: Promise<never>,
): Promise<void> {
  process.stderr.write(
    `bench (MCP): ${opts.warmup} warm-up + ${opts.calls} timed calls, ${scenarios.length} ways interleaved\n`,
  );
  const progress = { unit: 'calls per way', every: 50 };
  const measure = async () => {
    await roundRobin(
      scenarios.map((s) => s.sampler),
      { warmup: opts.warmup, iterations: opts.calls, interrupts: ctx.interrupts, progress },
    );
    for (const s of turns) await s.sampler.finish();
  };
  try {
    await Promise.race([measure(), died]);
  } catch (err) {
    // Conversations left open: end them so they do not linger on the server.
    await Promise.all(turns.map((s) => s.sampler.abort()));
    throw err;
  }
}
