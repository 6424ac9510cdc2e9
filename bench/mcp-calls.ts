// One MCP tool call (fx convert) measured several ways. a, a+, a', callMcpTool() and b run interleaved round-robin;
// c runs after them, alone, once the agent workers have stopped, so its process spawns do not load the CPU under
// the others.
import { performance } from 'node:perf_hooks';
import { McpDiscovery } from '../endpoints/catalog';
import { McpPool } from '../endpoints/mcp/pool';
import { RegistryFile } from '../endpoints/endpoint-registry';
import type { AgentWorker } from '../worker/create-worker';
import { PROJECT_ROOT } from '../worker/worker-settings';
import { agentConversations } from './agent-conversation';
import type { BenchContext } from './context';
import { fxEntry, spawnFx, writeRegistry } from './fx';
import { activityRunTimes } from './history-timeline';
import type { McpOptions } from './options';
import { roundRobin } from './round-robin';
import type { CallScenario } from './scenario';
import { inProcessCall } from './scenarios/mcp-in-process-call';
import { sdkCall } from './scenarios/mcp-sdk-call';
import { hungEndpointRegistry, hungEndpointTurn, learnHungEndpoint } from './scenarios/mcp-hung-endpoint-turn';
import { spawnPerCall, type SpawnSampler } from './scenarios/mcp-spawn-per-call';
import { mcpToolTurn, nativeToolTurn, type McpTurnSpec } from './scenarios/mcp-tool-turn';
import { MCP_GOAL, mcpScript } from './scripted-answers';
import { SessionRotation } from './session-rotation';
import { createBenchAgentWorker, runWorkers } from './workers';

export interface McpCallResults {
  /** a, a+, a', callMcpTool, b, c: the table's rows. */
  scenarios: CallScenario[];
  spawn: SpawnSampler;
  /** For the turns (a, a+, a'): each activity's run time in the timed turns, by activity type. */
  activityMs: Record<string, Record<string, number[]>>;
  /** For the turns: conversations started, warm-up ones included. */
  conversations: Record<string, number>;
  phase1Ms: number;
  spawnMs: number;
}

/** `cleanups` collects what stays open (worker, pool, session) for the caller to close, also on failure. */
export async function benchMcpCalls(
  ctx: BenchContext,
  opts: McpOptions,
  dir: string,
  cleanups: (() => Promise<void>)[],
): Promise<McpCallResults> {
  // The workers: goal_general by default, one fx endpoint, and for a+ fx and an endpoint that hangs; native-tool
  // conversations name goal_hr_pto.
  const registry = writeRegistry(dir, 'fx-worker.json', { fx: fxEntry });
  const env = (file: string) => ({ AGENT_GOAL: MCP_GOAL, VALIDATE_PROMPTS: 'false', MCP_ENDPOINTS_FILE: file });
  const agent = await createBenchAgentWorker(ctx, 'mcp', env(registry), mcpScript);
  const hungAgent = await createBenchAgentWorker(
    ctx,
    'mcp-hung',
    env(hungEndpointRegistry(dir, opts.hungTimeoutMs)),
    mcpScript,
  );
  const worker = runWorkers(
    ctx,
    [agent.worker, hungAgent.worker],
    [agent.close, hungAgent.close],
    'an MCP bench worker',
  );
  cleanups.push(worker.stop);
  process.stderr.write('bench (MCP): a+ worker discovering its endpoints (waits out the hung one, once)\n');
  await Promise.race([learnHungEndpoint(hungAgent), worker.died]);

  const policy = { turnsPerSession: opts.turnsPerConversation, warmupApart: true };
  const turn = (spec: McpTurnSpec, on: AgentWorker): CallScenario<SessionRotation> => ({
    key: spec.key,
    name: spec.name,
    description: spec.description,
    sampler: new SessionRotation(policy, agentConversations(ctx.client, on.worker.options.taskQueue, ctx.runId, spec)),
  });
  const turns = [turn(mcpToolTurn, agent), turn(hungEndpointTurn, hungAgent), turn(nativeToolTurn, agent)];
  const interleaved = [...turns, ...(await directCalls(registry, cleanups))];

  let t = performance.now();
  await measureInterleaved(ctx, opts, interleaved, turns, worker.died);
  const phase1Ms = performance.now() - t;
  await worker.stop();

  const spawn = spawnPerCall();
  process.stderr.write(
    `bench (MCP): ${opts.spawnWarmup} warm-up + ${opts.spawnCalls} timed calls spawning the server each time\n`,
  );
  t = performance.now();
  await roundRobin([spawn.sampler], {
    warmup: opts.spawnWarmup,
    iterations: opts.spawnCalls,
    interrupts: ctx.interrupts,
  });
  const spawnMs = performance.now() - t;

  return {
    scenarios: [...interleaved, spawn],
    spawn: spawn.sampler,
    activityMs: Object.fromEntries(
      turns.map((s) => [s.key, activityRunTimes(s.sampler.closed.flatMap((c) => c.timedTurns))]),
    ),
    conversations: Object.fromEntries(turns.map((s) => [s.key, s.sampler.opened])),
    phase1Ms,
    spawnMs,
  };
}

/** callMcpTool() over a pool of its own, and b over a plain SDK session of its own: both connected beforehand. */
async function directCalls(registry: string, cleanups: (() => Promise<void>)[]): Promise<CallScenario[]> {
  const pool = new McpPool({ baseDir: PROJECT_ROOT });
  cleanups.push(() => pool.closeAll());
  const discovery = new McpDiscovery({
    registry: new RegistryFile(registry),
    pool,
    discoveryTimeoutMs: 60_000,
    ttlMs: 3_600_000,
  });
  const convert = (await discovery.catalog()).tools.find((t) => t.name === 'fx__convert');
  if (!convert?.mcp) throw new Error('fx__convert is not in the catalog');
  const direct = spawnFx();
  cleanups.push(() => direct.client.close());
  await direct.client.connect(direct.transport);
  return [inProcessCall(discovery, pool, { name: convert.name, ref: convert.mcp }), sdkCall(direct.client)];
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
