// `npm run bench -- [--quick] [part…]`: what the orchestrator costs, measured on a real Temporal server with real
// workers. The parts (options.ts, PARTS) run one after the other on one server, in this order: the chat turns against
// a floor (an update that runs one no-op activity: what is left over it is the orchestrator's own cost), one model
// wait per turn, MCP, A2A, unattended runs, recall of owners' memories, durability, the HTTP API, memory per
// conversation (the compiled worker), scale on one box. Finished investigations (options.ts, RETIRED_PARTS) are figures in bench/README.md, no longer parts.
// `--quick`: every part with small counts (CI's smoke test). What each measures: bench/README.md.
//
// One server for everything; TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE etc.) uses that server instead of a dev server.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { bundleWorkflowCode, DefaultLogger, Runtime, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_OPTIONS } from '../worker/workflow-code';
import { runApiBench } from './api-bench';
import { runChatTurns } from './chat-turns';
import type { BenchContext, BenchPart } from './context';
import { runDurabilityBench } from './durability-bench';
import { watchInterrupts } from './interrupts';
import { runA2aBench } from './a2a-bench';
import { runUnattendedBench } from './unattended-bench';
import { runRecallBench } from './recall-bench';
import { runMcpBench } from './mcp-bench';
import { runMemoryBench } from './memory-bench';
import { runPeerBench } from './peer-bench';
import { runOneModelWaitBench } from './one-model-wait';
import { readPlan, USAGE, type Counts, type PartName, type Plan } from './options';
import { printAndSave, type PartResult } from './report/run-report';
import { runScaleBench } from './scale';
import { startServer, type BenchServer } from './server';
import { verdicts } from './verdict';

const FLOOR_WORKFLOW_PATH = require.resolve('./floor-workflow');
const interrupts = watchInterrupts();

/** What a part is run with. */
interface PartRun {
  ctx: BenchContext;
  server: BenchServer;
  counts: Counts;
  floorBundle(): Promise<WorkflowBundleWithSourceMap>;
  /** Keeps something running until the whole run ends (the chat-turn workers). */
  keep(stop: () => Promise<void>): void;
}

const RUN: Record<PartName, (r: PartRun) => Promise<BenchPart>> = {
  turns: async (r) => runChatTurns(r.ctx, await r.floorBundle(), r.counts.turns, r.keep),
  // Both workers are processes of their own: it compiles ours first, as the memory part does.
  peer: (r) => runPeerBench(r.ctx, r.server.info.address, r.counts.peer),
  'one-model-wait': (r) => runOneModelWaitBench(r.ctx, r.counts.oneModelWait),
  mcp: (r) => runMcpBench(r.ctx, r.counts.mcp),
  a2a: (r) => runA2aBench(r.ctx, r.counts.a2a),
  unattended: (r) => runUnattendedBench(r.ctx, r.counts.unattended),
  recall: (r) => runRecallBench(r.ctx, r.counts.recall),
  durability: (r) => runDurabilityBench(r.ctx, r.server.info.address, r.counts.durability),
  api: (r) => runApiBench(r.ctx, r.server.info.address, r.counts.api),
  // Its workers are processes of their own: it compiles the worker first (tsc, then the workflow bundle).
  memory: (r) => runMemoryBench(r.ctx, r.server.info.address, r.counts.memory),
  scale: (r) => runScaleBench(r.ctx, r.server, r.counts.scale),
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h'))
    return console.log(`${USAGE}\nWhat each part measures: bench/README.md`);
  let plan: Plan;
  try {
    plan = readPlan(argv);
  } catch (err) {
    console.error(`npm run bench: ${(err as Error).message}`);
    process.exitCode = 2;
    return;
  }
  const stale = Object.keys(process.env).filter((k) => k.startsWith('BENCH_'));
  if (stale.length)
    process.stderr.write(`bench: ${stale.join(', ')} no longer read: parts and --quick instead (bench/README.md)\n`);
  const wallStart = performance.now();
  const loadBefore = os.loadavg();
  Runtime.install({ logger: new DefaultLogger('WARN') });

  process.stderr.write(
    `bench: ${plan.parts.join(', ')}${plan.quick ? ' (--quick)' : ''}; starting Temporal and bundling workflow code…\n`,
  );
  const logger = new DefaultLogger('WARN');
  let floor: Promise<WorkflowBundleWithSourceMap> | undefined;
  const floorBundle = () => (floor ??= bundleWorkflowCode({ workflowsPath: FLOOR_WORKFLOW_PATH, logger }));
  const needsFloor = plan.parts.includes('turns');
  const [server, agentBundle] = await Promise.all([
    startServer(),
    // The agent's bundle as every worker makes it (its modules shared by its workflows).
    bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger }),
    needsFloor ? floorBundle() : undefined,
  ]);
  const setupMs = performance.now() - wallStart;
  const ctx: BenchContext = {
    client: server.client,
    connection: server.connection,
    namespace: server.namespace,
    agentBundle,
    runId: `${process.pid}-${Date.now().toString(36)}`,
    interrupts,
  };
  const kept: (() => Promise<void>)[] = [];
  const run: PartRun = { ctx, server, counts: plan.counts, floorBundle, keep: (stop) => kept.push(stop) };
  const results: PartResult[] = [];
  try {
    for (const name of plan.parts) {
      interrupts.check();
      const started = performance.now();
      const judged = verdicts().length;
      const part = await RUN[name](run).catch((err: unknown) => {
        // Ctrl-C also reaches the servers and workers, so what fails first is often a call to one: name the real cause.
        interrupts.check();
        throw err;
      });
      results.push({ name, part, verdicts: verdicts().slice(judged), ms: performance.now() - started });
    }
    const facts = {
      ...plan,
      server,
      setupMs,
      wallMs: performance.now() - wallStart,
      loadBefore,
      loadAfter: os.loadavg(),
    };
    printAndSave(facts, results);
    // A full run that missed a target fails, so a regression cannot pass unnoticed; --quick judges nothing.
    const missed = verdicts().filter((v) => !v.met);
    if (!plan.quick && missed.length) {
      console.error(`bench: ${missed.length} target(s) missed: ${missed.map((v) => v.what).join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    for (const stop of kept.reverse()) await stop();
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
