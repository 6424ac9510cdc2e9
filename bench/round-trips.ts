// Round trips per step (issue 11): what eager activity dispatch and a heartbeat at an activity's start each cost a
// turn. The same turns, interleaved round-robin, on this run's dev server (eager dispatch on, as npm start and the
// tests run it) and on a second dev server with it off; on the first also through a worker whose activities beat as
// they start, as they did before. Server-side time comes from the history timeline, as in the chat-turn table.
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { agentConversations } from './agent-conversation';
import type { BenchContext, BenchPart } from './context';
import { createFloorActivities } from './floor-activities';
import type { RoundTripOptions } from './options';
import { roundTripsJson, roundTripsText } from './report/round-trips-report';
import { roundRobin } from './round-robin';
import type { ChatTurnSpec, RoundTripConfig, RoundTripRow } from './scenario';
import { floorScenario } from './scenarios/floor';
import { textTurn } from './scenarios/text-turn';
import { toolTurn } from './scenarios/tool-turn';
import { PTO_GOAL, turnScript } from './scripted-answers';
import { startDevServer, type BenchServer } from './server';
import { SessionRotation } from './session-rotation';
import { createBenchAgentWorker, runWorkers } from './workers';

const CONFIGS: RoundTripConfig[] = [
  { key: 'before', label: 'eager off, beat at start', eager: false, beatAtStart: true },
  { key: 'eager', label: 'eager on, beat at start', eager: true, beatAtStart: true },
  { key: 'now', label: 'eager on, no beat at start', eager: true, beatAtStart: false },
];

const AGENT_TURNS: ChatTurnSpec[] = [textTurn, toolTurn];

export async function runRoundTrips(
  ctx: BenchContext,
  server: BenchServer,
  floorBundle: WorkflowBundleWithSourceMap,
  opts: RoundTripOptions,
): Promise<BenchPart> {
  if (server.info.mode !== 'dev-server') {
    const note = 'Round trips: skipped (TEMPORAL_ADDRESS is set; this part compares dev servers of its own).';
    return { text: `\n${note}`, json: { skipped: note } };
  }
  process.stderr.write('bench (round trips): a second dev server, eager activity dispatch off…\n');
  const off = await startDevServer({ 'system.enableActivityEagerExecution': false });
  const serverOf = (eager: boolean) => (eager ? server : off);
  const ctxOf = (eager: boolean): BenchContext => ({
    ...ctx,
    client: serverOf(eager).client,
    connection: serverOf(eager).connection,
  });
  const workers: Worker[] = [];
  const closers: (() => Promise<void>)[] = [];
  const rows: RoundTripRow[] = [];
  const policy = { turnsPerSession: opts.turnsPerConversation, warmupApart: false };
  try {
    for (const eager of [false, true]) {
      const queue = `bench-rt-floor-${eager ? 'on' : 'off'}-${ctx.runId}`;
      const c = ctxOf(eager);
      workers.push(
        await Worker.create({
          connection: c.connection,
          namespace: c.namespace,
          taskQueue: queue,
          workflowBundle: floorBundle,
          activities: createFloorActivities(),
        }),
      );
      // The floor's activity does not heartbeat: its rows differ in eager dispatch alone.
      const config: RoundTripConfig = {
        key: eager ? 'now' : 'before',
        label: eager ? 'eager on' : 'eager off',
        eager,
        beatAtStart: false,
      };
      rows.push({
        scenario: 'floor (update + 1 no-op activity)',
        config,
        sampler: floorScenario(c.client, queue, `rt-${config.key}-${ctx.runId}`, policy).sampler,
      });
    }
    for (const config of CONFIGS) {
      const c = ctxOf(config.eager);
      const agent = await createBenchAgentWorker(
        c,
        `rt-${config.key}`,
        { AGENT_GOAL: PTO_GOAL, VALIDATE_PROMPTS: 'false' },
        turnScript,
        { beatAtStart: config.beatAtStart },
      );
      workers.push(agent.worker);
      closers.push(agent.close);
      for (const spec of AGENT_TURNS) {
        const open = agentConversations(
          c.client,
          agent.worker.options.taskQueue,
          `rt-${config.key}-${ctx.runId}`,
          spec,
        );
        rows.push({ scenario: spec.name, config, sampler: new SessionRotation(policy, open) });
      }
    }
    const running = runWorkers(ctx, workers, closers, 'a round-trip worker');
    try {
      process.stderr.write(
        `bench (round trips): ${opts.warmup} warm-up + ${opts.iterations} timed turns per row, ${rows.length} rows interleaved\n`,
      );
      const measure = async () => {
        await roundRobin(
          rows.map((r) => r.sampler),
          { ...opts, interrupts: ctx.interrupts, progress: { unit: 'turns per row', every: 50 } },
        );
        for (const r of rows) await r.sampler.finish();
      };
      await Promise.race([measure(), running.died]);
    } catch (err) {
      await Promise.all(rows.map((r) => r.sampler.abort()));
      throw err;
    } finally {
      await running.stop();
    }
    return { text: roundTripsText(rows, opts, server, off), json: roundTripsJson(rows, opts, off) };
  } finally {
    await off.teardown();
  }
}
