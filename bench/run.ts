// `npm run bench`: client-observed latency of a chat turn on a real Temporal server and a real agent worker,
// with a zero-latency scripted model, against a floor (an update that runs one no-op activity). What is left
// over the floor is what the orchestrator costs: its workflow code, its activities' payloads, the AI SDK path.
// Then the MCP benchmarks (mcp-bench.ts), the durability ones (durability-bench.ts), the HTTP API ones (api-bench.ts)
// and the lean-worker ones (worker-bench.ts) on the same server; BENCH_ONLY=api or =worker runs one of the last two
// alone. Round trips per step (round-trips.ts) come right after the chat turns, then one model wait, delegation
// (delegation.ts; BENCH_ONLY=delegation runs it alone) and SearchTools (tool-search.ts); scale on one box (scale.ts)
// last. Knobs (BENCH_*): see options.ts. `npm run bench -- --quick`: every part with small counts (about a minute),
// for CI smoke.
//
// One server for everything; TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE etc.) uses that server instead of a dev server.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../worker/create-worker';
import { chatTurnScenarios, measureChatTurns, startChatTurnWorkers, type ChatTurnWorkers } from './chat-turns';
import type { BenchContext } from './context';
import { watchInterrupts } from './interrupts';
import { runApiBench } from './api-bench';
import { runDelegationBench } from './delegation';
import { runToolSearchBench } from './tool-search';
import { runMcpBench } from './mcp-bench';
import { runOneModelWaitBench } from './one-model-wait';
import {
  readApiOptions,
  readDelegationOptions,
  readToolSearchOptions,
  readDurabilityOptions,
  readMcpOptions,
  readMode,
  readOneModelWaitOptions,
  readOnly,
  readRoundTripOptions,
  readScaleOptions,
  readTurnOptions,
  readWorkerBenchOptions,
} from './options';
import { runDurabilityBench } from './durability-bench';
import { chatTurnResults } from './report/chat-turns-report';
import { onlyResultsFile, printAndSave, printAndSaveOnly, type BenchPart } from './report/run-report';
import type { TurnScenario } from './scenario';
import { runRoundTrips } from './round-trips';
import { runScaleBench } from './scale';
import { startServer, type BenchServer } from './server';
import { runWorkerBench, runWorkerBenchAlone } from './worker-bench';

const FLOOR_WORKFLOW_PATH = require.resolve('./floor-workflow');
const interrupts = watchInterrupts();

async function main(): Promise<void> {
  const { quick, env } = readMode();
  const opts = readTurnOptions(env);
  const mcpOpts = readMcpOptions(env);
  const durabilityOpts = readDurabilityOptions(env);
  const apiOpts = readApiOptions(env);
  const workerOpts = readWorkerBenchOptions(env);
  const roundTripOpts = readRoundTripOptions(env);
  const scaleOpts = readScaleOptions(env);
  const delegationOpts = readDelegationOptions(env);
  const only = readOnly(env);
  if (only === 'worker') return runWorkerBenchAlone(workerOpts, interrupts);
  if (only === 'api') return partAlone(only, (ctx, server) => runApiBench(ctx, server.info.address, apiOpts));
  if (only === 'delegation') return partAlone(only, (ctx) => runDelegationBench(ctx, delegationOpts));
  if (only === 'toolsearch') return partAlone(only, (ctx) => runToolSearchBench(ctx, readToolSearchOptions(env)));
  if (only === 'scale') return partAlone(only, (ctx, server) => runScaleBench(ctx, server, scaleOpts));
  const wallStart = performance.now();
  const loadBefore = os.loadavg();
  Runtime.install({ logger: new DefaultLogger('WARN') });

  process.stderr.write('bench: starting Temporal and bundling workflow code…\n');
  const bundle = (workflowsPath: string) => bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
  const [server, agentBundle, floorBundle] = await Promise.all([
    startServer(),
    bundle(WORKFLOWS_PATH),
    bundle(FLOOR_WORKFLOW_PATH),
  ]);
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  const ctx: BenchContext = {
    client: server.client,
    connection: server.connection,
    namespace: server.namespace,
    agentBundle,
    runId,
    interrupts,
  };

  let workers: ChatTurnWorkers | undefined;
  let scenarios: TurnScenario[] = [];
  try {
    workers = await startChatTurnWorkers(ctx, floorBundle);
    const setupMs = performance.now() - wallStart;
    interrupts.check();
    scenarios = chatTurnScenarios(ctx, workers, opts);
    const measureMs = await measureChatTurns(ctx, scenarios, opts, workers.running.died);
    const facts = { opts, server, setupMs, measureMs, loadBefore, loadAfter: os.loadavg(), quick };
    const roundTrips = await runRoundTrips(ctx, server, floorBundle, roundTripOpts);
    const oneModelWait = await runOneModelWaitBench(ctx, readOneModelWaitOptions(env));
    const delegation = await runDelegationBench(ctx, delegationOpts);
    const toolSearch = await runToolSearchBench(ctx, readToolSearchOptions(env));
    // The chat-turn workers stay up during the MCP part, as they always have, so its numbers stay comparable.
    const mcp = await runMcpBench(ctx, mcpOpts);
    const durability = await runDurabilityBench(ctx, server.info.address, durabilityOpts);
    const api = await runApiBench(ctx, server.info.address, apiOpts);
    // Not in --quick: it compiles the worker (BENCH_ONLY=worker runs it alone).
    const worker = quick ? undefined : await runWorkerBench(ctx, server.info.address, workerOpts);
    const scale = await runScaleBench(ctx, server, scaleOpts);
    printAndSave(facts, chatTurnResults(scenarios), mcp, durability, api, worker, {
      roundTrips,
      oneModelWait,
      delegation,
      toolSearch,
      scale,
    });
  } catch (err) {
    await Promise.all(scenarios.map((s) => s.sampler.abort()));
    throw err;
  } finally {
    await workers?.running.stop();
    await server.teardown();
  }
}

/** BENCH_ONLY=<part>: the server, the agent's bundle, and that part alone; its JSON goes to latest-<part>.json. */
async function partAlone(
  name: string,
  run: (ctx: BenchContext, server: BenchServer) => Promise<BenchPart>,
): Promise<void> {
  const loadBefore = os.loadavg();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  process.stderr.write(`bench: starting Temporal and bundling workflow code (BENCH_ONLY=${name})…\n`);
  const [server, agentBundle] = await Promise.all([
    startServer(),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') }),
  ]);
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  const ctx: BenchContext = {
    client: server.client,
    connection: server.connection,
    namespace: server.namespace,
    agentBundle,
    runId,
    interrupts,
  };
  try {
    const part = await run(ctx, server);
    printAndSaveOnly({ server, loadBefore, loadAfter: os.loadavg() }, name, part, onlyResultsFile(name));
  } finally {
    await server.teardown();
  }
}

main().catch((err: unknown) => {
  if (interrupts.cause) {
    console.error(`bench: ${(err as Error).message}; nothing was written.`);
    process.exitCode = 130;
    return;
  }
  console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
