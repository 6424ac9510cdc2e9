// MCP benchmarks, run by `npm run bench` after the chat-turn scenarios (bench/run.ts calls runMcpBench).
// All against the demo server fx (mcp/servers/fx.ts) over stdio, spawned as `node --require tsx/cjs mcp/servers/fx.ts`.
//
// 1. One MCP tool call (fx `convert` {amount: 100, from: USD, to: EUR}) measured several ways:
//      a   through the workflow: a chat turn on goal_general where the scripted model calls fx__convert, then
//          answers (refresh tools, planTurn, callMcpTool, planTurn), client-observed like the turns in run.ts;
//      a'  the same turn shape with a native tool (goal_hr_pto, CurrentPTO) on the same worker, interleaved;
//      —   callMcpTool() in-process: what the activity runs (catalog lookup, schema check, pooled session);
//      b   the MCP SDK Client's callTool over an already-connected stdio session;
//      c   spawning the server per call: new StdioClientTransport + Client.connect + callTool + close.
//    a, a', callMcpTool() and b run interleaved round-robin; c runs after them, alone, so its process spawns do
//    not load the CPU under the others.
// 2. Discovery (McpDiscovery.catalog()) over registries of N fx stdio endpoints (fx1..fxN):
//      cold        a fresh McpPool + McpDiscovery: spawns N servers, handshakes, lists their tools;
//      warm hit    catalog() again, nothing changed: one stat of the registry file and the cached catalog;
//      warm re-list catalog() after invalidate(): re-lists every endpoint over the pooled, live sessions.
//    Each cold run gets its own pool, closed (its processes ended) before the next.
//
// Environment (besides BENCH_WARMUP and BENCH_TURNS_PER_CONVERSATION, which apply as in run.ts):
//   BENCH_MCP_ITERATIONS        timed calls for a, a', callMcpTool() and b (default BENCH_ITERATIONS if set, else 100)
//   BENCH_MCP_SPAWN_ITERATIONS  timed calls for c, a process spawn each (default: the above, at most 100)
//   BENCH_MCP_COLD_RUNS         cold discoveries per endpoint count (default 5, at most the call iterations)
//   BENCH_MCP_ENDPOINTS         endpoint counts for discovery, comma-separated (default 1,10,20)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { NativeConnection, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { ScriptedModel, type ScriptInput } from '../activities/llm/scripted-model';
import { McpDiscovery } from '../mcp/catalog';
import { callMcpTool } from '../mcp/call';
import { McpPool } from '../mcp/pool';
import { RegistryFile } from '../mcp/registry';
import { createAgentWorker, type AgentWorker } from '../worker/create-worker';
import { PROJECT_ROOT, readWorkerSettings } from '../worker/settings';
import { AgentGoalWorkflow } from '../workflows';
import { endChatSignal, promptUpdate, usageQuery } from '../workflows/messages';
import type { AgentReply, ToolOutcome, Transcript } from '../workflows/types';
import { envInt, round, summarize, table, waitForGreeting, type Summary } from './stats';

export interface McpBenchContext {
  client: Client;
  connection: NativeConnection;
  namespace: string;
  workflowBundle: WorkflowBundleWithSourceMap;
  /** Makes workflow ids and task queues unique to this run. */
  runId: string;
  /** Throws when the run was interrupted (SIGINT/SIGTERM): checked between samples. */
  checkInterrupted(): void;
}

export interface McpBenchResult {
  /** The tables, ready to print. */
  text: string;
  /** For bench/results/latest.json. */
  json: Record<string, unknown>;
}

// ---- options ----------------------------------------------------------------------------------------------

interface McpBenchOptions {
  calls: number;
  spawnCalls: number;
  warmup: number;
  spawnWarmup: number;
  turnsPerConversation: number;
  coldRuns: number;
  endpointCounts: number[];
  /** Per cold pool: warm cache hits, and warm re-lists. */
  warmHitsPerPool: number;
  warmRelistsPerPool: number;
}

function readOptions(env: NodeJS.ProcessEnv = process.env): McpBenchOptions {
  const int = (name: string, fallback: number, min: number) => envInt(env, name, fallback, min);
  const calls = int('BENCH_MCP_ITERATIONS', int('BENCH_ITERATIONS', 100, 1), 1);
  const warmup = int('BENCH_WARMUP', 20, 0);
  const coldRuns = int('BENCH_MCP_COLD_RUNS', Math.min(5, calls), 1);
  const rawCounts = env.BENCH_MCP_ENDPOINTS?.trim() || '1,10,20';
  const endpointCounts = rawCounts.split(',').map((s) => Number(s.trim()));
  if (endpointCounts.some((n) => !Number.isInteger(n) || n < 1 || n > 200)) {
    throw new Error(`BENCH_MCP_ENDPOINTS must be whole numbers from 1 to 200, comma-separated, got "${rawCounts}"`);
  }
  return {
    calls,
    spawnCalls: int('BENCH_MCP_SPAWN_ITERATIONS', Math.min(calls, 100), 1),
    warmup,
    spawnWarmup: Math.min(warmup, 3),
    turnsPerConversation: int('BENCH_TURNS_PER_CONVERSATION', 50, 1),
    coldRuns,
    endpointCounts,
    warmHitsPerPool: 200,
    warmRelistsPerPool: Math.max(1, Math.ceil(calls / coldRuns)),
  };
}

// ---- fixtures ---------------------------------------------------------------------------------------------

const FX_ARGS = ['--require', 'tsx/cjs', 'mcp/servers/fx.ts'];
const FX_COMMAND = `node ${FX_ARGS.join(' ')}`;
/** A registry entry for fx, as the integration tests write it: read-only tools need no approval. */
const fxEntry = { command: process.execPath, args: FX_ARGS, categories: ['finance'], requireApproval: 'destructive' };
const CONVERT_ARGS = { amount: 100, from: 'USD', to: 'EUR' };
const CONVERTED = 92;

const MCP_GOAL = 'goal_general';
const NATIVE_GOAL = 'goal_hr_pto';
const MCP_PROMPT = 'bench: convert 100 USD to EUR';
const MCP_REPLY = '100 USD is 92 EUR.';
const NATIVE_PROMPT = 'bench: balance for ada@example.com';
const NATIVE_REPLY = 'You have 104 hours of PTO left.';

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi! How can I help?' } },
    { user: '^bench: convert (\\d+) (\\w{3}) to (\\w{3})', reply: { toolCalls: [{ tool: 'fx__convert', args: { amount: '{{1:number}}', from: '{{2}}', to: '{{3}}' } }] } },
    { afterTool: 'fx__convert', outcome: 'ok', reply: { text: '{{result.amount}} {{result.from}} is {{result.converted}} {{result.to}}.' } },
    { user: '^bench: balance for ([\\w.]+@[\\w.]+\\w)', reply: { toolCalls: [{ tool: 'CurrentPTO', args: { email: '{{1}}' } }] } },
    { afterTool: 'CurrentPTO', outcome: 'ok', reply: { text: 'You have {{result.hoursLeft}} hours of PTO left.' } },
  ],
};

function writeRegistry(dir: string, name: string, servers: Record<string, unknown>): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

function fxRegistry(dir: string, n: number): string {
  return writeRegistry(dir, `fx-${n}.json`, Object.fromEntries(Array.from({ length: n }, (_, i) => [`fx${i + 1}`, fxEntry])));
}

function checkConverted(where: string, value: unknown): void {
  const converted = (value as { converted?: unknown } | undefined)?.converted;
  if (converted !== CONVERTED) throw new Error(`${where}: expected converted ${CONVERTED}, got ${JSON.stringify(value)}`);
}

// ---- 1. one tool call, several ways -----------------------------------------------------------------------

interface CallScenario {
  key: string;
  name: string;
  description: string;
  samples: number[];
  /** One timed call; `timed` false for warm-up calls. Returns ms. */
  sample(timed: boolean): Promise<number>;
  /** Ends whatever the scenario holds open (conversations); untimed. */
  finish(): Promise<void>;
}

// temporal.api.enums.v1.EventType values.
const EVENT = { ACTIVITY_SCHEDULED: 10, ACTIVITY_COMPLETED: 12, UPDATE_ACCEPTED: 41 } as const;

/** A chat-turn scenario: conversations of `turnsPerConversation` turns; warm-up turns in a conversation of their own. */
function turnScenario(
  ctx: McpBenchContext,
  taskQueue: string,
  workerDied: Promise<never>,
  opts: McpBenchOptions,
  spec: { key: string; name: string; description: string; slug: string; goalId: string; prompt: string; reply: string; tool: string },
): CallScenario & { activityMs: Record<string, number[]>; conversations: number; abort(): Promise<void> } {
  let handle: WorkflowHandle<typeof AgentGoalWorkflow> | undefined;
  let turns = 0;
  let timedConversation = false;
  let seq = 0;
  const activityMs: Record<string, number[]> = {};

  async function open(): Promise<void> {
    handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
      taskQueue,
      workflowId: `bench-mcp-${spec.slug}-${ctx.runId}-${++seq}`,
      args: [{ goalId: spec.goalId }],
    });
    turns = 0;
    await Promise.race([waitForGreeting(handle), workerDied]);
  }

  async function close(): Promise<void> {
    if (!handle) return;
    const h = handle;
    handle = undefined;
    const usage = await h.query(usageQuery);
    await h.signal(endChatSignal);
    const transcript: Transcript = await Promise.race([h.result(), workerDied]);
    const users = transcript.messages.filter((m) => m.kind === 'user').length;
    const tools = transcript.messages.filter((m) => m.kind === 'tool' && m.call.tool === spec.tool && m.outcome.status === 'ok').length;
    if (usage.runs === 1 && (users !== turns + 1 || tools !== turns)) {
      throw new Error(`${spec.name}: transcript has ${users} user messages and ${tools} ${spec.tool} results after ${turns} turns`);
    }
    if (timedConversation) collectActivityTimes(await h.fetchHistory(), activityMs);
  }

  return {
    key: spec.key,
    name: spec.name,
    description: spec.description,
    samples: [],
    activityMs,
    get conversations() {
      return seq;
    },
    async sample(timed) {
      if (timed && !timedConversation) {
        await close();
        timedConversation = true;
      }
      if (handle && turns >= opts.turnsPerConversation) await close();
      if (!handle) await open();
      const started = performance.now();
      const reply = (await Promise.race([handle!.executeUpdate(promptUpdate, { args: [spec.prompt] }), workerDied])) as AgentReply;
      const elapsed = performance.now() - started;
      turns++;
      if (reply.reply !== spec.reply || reply.pendingToolCall || reply.ended) {
        throw new Error(`${spec.name}: unexpected reply ${JSON.stringify(reply)}`);
      }
      return elapsed;
    },
    async finish() {
      await close();
    },
    /** Best effort after a failure: terminates the open conversation. */
    async abort() {
      await handle?.terminate('benchmark aborted').catch(() => undefined);
      handle = undefined;
    },
  };
}

/** Each activity's run time (started → completed, server timestamps) by type, for the turns after the greeting. */
function collectActivityTimes(history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>, into: Record<string, number[]>): void {
  const events = history.events ?? [];
  const at = (i: number) => {
    const t = events[i]!.eventTime!;
    return Number(t.seconds) * 1000 + (t.nanos ?? 0) / 1e6;
  };
  const indexOf = new Map(events.map((e, i) => [String(e.eventId), i]));
  let inTurns = false;
  for (let i = 0; i < events.length; i++) {
    const type = events[i]!.eventType as number | undefined;
    if (type === EVENT.UPDATE_ACCEPTED) inTurns = true;
    if (!inTurns || type !== EVENT.ACTIVITY_COMPLETED) continue;
    const attrs = events[i]!.activityTaskCompletedEventAttributes!;
    const started = indexOf.get(String(attrs.startedEventId));
    const scheduled = indexOf.get(String(attrs.scheduledEventId));
    if (started === undefined || scheduled === undefined || events[scheduled]!.eventType !== EVENT.ACTIVITY_SCHEDULED) continue;
    const name = events[scheduled]!.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
    (into[name] ??= []).push(at(i) - at(started));
  }
}


function spawnFx(): { client: McpClient; transport: StdioClientTransport } {
  const client = new McpClient({ name: 'bench', version: '0.1.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: FX_ARGS,
    env: getDefaultEnvironment(),
    cwd: PROJECT_ROOT,
    stderr: 'pipe',
  });
  return { client, transport };
}

async function sdkConvert(client: McpClient): Promise<void> {
  const result = (await client.callTool({ name: 'convert', arguments: CONVERT_ARGS })) as CallToolResult;
  if (result.isError) throw new Error(`fx convert failed: ${JSON.stringify(result.content)}`);
  checkConverted('SDK callTool', result.structuredContent);
}

// ---- 2. discovery -----------------------------------------------------------------------------------------

interface DiscoverySamples {
  endpoints: number;
  tools: number;
  cold: number[];
  warmHit: number[];
  warmRelist: number[];
  poolClose: number[];
}

async function discoveryRun(file: string, n: number, opts: McpBenchOptions, into: DiscoverySamples, ctx: McpBenchContext): Promise<void> {
  const pool = new McpPool({ baseDir: PROJECT_ROOT });
  // Generous timeouts: 20 servers starting at once on a small machine must not be reported as unavailable.
  const discovery = new McpDiscovery({ registry: new RegistryFile(file), pool, discoveryTimeoutMs: 60_000, ttlMs: 3_600_000 });
  let closed = false;
  try {
    const check = (catalog: Awaited<ReturnType<McpDiscovery['catalog']>>, what: string) => {
      const bad = catalog.endpoints.filter((e) => e.status !== 'ok');
      if (catalog.endpoints.length !== n || bad.length > 0 || catalog.tools.length !== 3 * n) {
        throw new Error(
          `discovery (${what}, ${n} endpoints): ${catalog.endpoints.length} endpoints, ${catalog.tools.length} tools` +
            (bad.length ? `; ${bad.map((e) => `${e.name} ${e.status}${e.error ? `: ${e.error}` : ''}`).join('; ')}` : ''),
        );
      }
      return catalog.version;
    };
    let t = performance.now();
    const version = check(await discovery.catalog(), 'cold');
    into.cold.push(performance.now() - t);
    into.tools = 3 * n;

    for (let i = 0; i < opts.warmHitsPerPool; i++) {
      t = performance.now();
      const catalog = await discovery.catalog();
      into.warmHit.push(performance.now() - t);
      if (catalog.version !== version) throw new Error(`discovery (warm hit, ${n} endpoints): the catalog changed`);
    }
    for (let i = 0; i < opts.warmRelistsPerPool; i++) {
      ctx.checkInterrupted();
      discovery.invalidate();
      t = performance.now();
      const catalog = await discovery.catalog();
      into.warmRelist.push(performance.now() - t);
      if (check(catalog, 'warm re-list') !== version) throw new Error(`discovery (warm re-list, ${n} endpoints): the catalog changed`);
    }
    t = performance.now();
    await pool.closeAll();
    into.poolClose.push(performance.now() - t);
    closed = true;
  } finally {
    if (!closed) await pool.closeAll();
  }
}

// ---- statistics and tables (same method as run.ts: nearest rank) ------------------------------------------

const roundSummary = (s: Summary, digits = 3) =>
  Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'n').map(([k, v]) => [k, round(v, digits)]));


/** ms with as many decimals as the size calls for: 512, 31.4, 1.23, 0.012. */
function ms(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3);
}

function ratio(x: number, y: number): string {
  if (!Number.isFinite(x) || !Number.isFinite(y) || y === 0) return '—';
  const r = x / y;
  if (r >= 1e6) return `${(r / 1e6).toFixed(1)}M×`;
  if (r >= 1e4) return `${(r / 1e3).toFixed(0)}k×`;
  return `${r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r >= 0.1 ? r.toFixed(2) : r.toFixed(4)}×`;
}

// ---- running ----------------------------------------------------------------------------------------------

export async function runMcpBench(ctx: McpBenchContext): Promise<McpBenchResult> {
  const opts = readOptions();
  const started = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-mcp-'));
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const call = await benchCall(ctx, opts, dir, cleanups);
    const discovery = await benchDiscovery(ctx, opts, dir);
    const measureMs = performance.now() - started;
    return render(opts, call, discovery, measureMs);
  } catch (err) {
    // Ctrl-C also reaches the servers, so what fails first is often a call to one of them: name the real cause.
    ctx.checkInterrupted();
    throw err;
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

interface CallResults {
  scenarios: CallScenario[];
  activityMs: Record<string, Record<string, number[]>>;
  conversations: Record<string, number>;
  spawnParts: { connect: number[]; call: number[]; close: number[] };
  phase1Ms: number;
  spawnMs: number;
}

async function benchCall(ctx: McpBenchContext, opts: McpBenchOptions, dir: string, cleanups: (() => Promise<void>)[]): Promise<CallResults> {
  // The worker: goal_general by default, one fx endpoint; native-tool conversations name goal_hr_pto.
  const registry = writeRegistry(dir, 'fx-worker.json', { fx: fxEntry });
  const config = {
    ...readWorkerSettings({ AGENT_GOAL: MCP_GOAL, VALIDATE_PROMPTS: 'false', MCP_ENDPOINTS_FILE: registry } as NodeJS.ProcessEnv),
    taskQueue: `bench-mcp-${ctx.runId}`,
  };
  const agent: AgentWorker = await createAgentWorker({
    connection: ctx.connection,
    namespace: ctx.namespace,
    config,
    model: { model: new ScriptedModel(script), provider: 'scripted', modelId: 'bench', description: 'bench script' },
    workflowBundle: ctx.workflowBundle,
  });
  const run = agent.worker.run();
  const stopWorker = async () => {
    if (agent.worker.getState() === 'RUNNING') agent.worker.shutdown();
    await run.catch(() => undefined);
    await agent.close();
  };
  cleanups.push(stopWorker);
  const workerDied: Promise<never> = run.then(
    () => Promise.reject(new Error('the MCP bench worker stopped during the benchmark')),
    (err: unknown) => Promise.reject(err),
  );
  workerDied.catch(() => undefined);

  // In-process: our call path over its own pool, and a plain SDK client over its own stdio session.
  const pool = new McpPool({ baseDir: PROJECT_ROOT });
  cleanups.push(() => pool.closeAll());
  const discovery = new McpDiscovery({ registry: new RegistryFile(registry), pool, discoveryTimeoutMs: 60_000, ttlMs: 3_600_000 });
  const convert = (await discovery.catalog()).tools.find((t) => t.name === 'fx__convert');
  if (!convert?.mcp) throw new Error('fx__convert is not in the catalog');
  const direct = spawnFx();
  cleanups.push(() => direct.client.close());
  await direct.client.connect(direct.transport);

  const mcpTurn = turnScenario(ctx, config.taskQueue, workerDied, opts, {
    key: 'a',
    name: 'a  workflow turn, MCP tool',
    description: `promptUpdate on ${MCP_GOAL}; the model calls fx__convert (stdio, pooled session), then answers: resolveGoal (catalog cache hit), planTurn, callMcpTool, planTurn.`,
    slug: 'turn',
    goalId: MCP_GOAL,
    prompt: MCP_PROMPT,
    reply: MCP_REPLY,
    tool: 'fx__convert',
  });
  const nativeTurn = turnScenario(ctx, config.taskQueue, workerDied, opts, {
    key: "a'",
    name: "a' workflow turn, native tool",
    description: `promptUpdate on ${NATIVE_GOAL}, same worker: the model calls CurrentPTO, then answers: resolveGoal, planTurn, CurrentPTO, planTurn.`,
    slug: 'native',
    goalId: NATIVE_GOAL,
    prompt: NATIVE_PROMPT,
    reply: NATIVE_REPLY,
    tool: 'CurrentPTO',
  });
  const timeIt = async (fn: () => Promise<void>) => {
    const t = performance.now();
    await fn();
    return performance.now() - t;
  };
  const inProcess: CallScenario = {
    key: 'callMcpTool',
    name: '   callMcpTool() in-process',
    description: 'mcp/call.ts callMcpTool: catalog cache hit, argument schema check, callTool on the pooled session, outcome mapping; no Temporal.',
    samples: [],
    sample: () =>
      timeIt(async () => {
        const outcome: ToolOutcome = await callMcpTool(discovery, pool, { name: convert.name, ref: convert.mcp!, args: CONVERT_ARGS });
        if (outcome.status !== 'ok') throw new Error(`callMcpTool: ${JSON.stringify(outcome)}`);
        checkConverted('callMcpTool', outcome.result);
      }),
    finish: async () => undefined,
  };
  const sdkCall: CallScenario = {
    key: 'b',
    name: 'b  SDK callTool, connected session',
    description: 'MCP SDK Client.callTool over a stdio session connected beforehand (no validation layer, no Temporal).',
    samples: [],
    sample: () => timeIt(() => sdkConvert(direct.client)),
    finish: async () => undefined,
  };
  const spawnParts = { connect: [] as number[], call: [] as number[], close: [] as number[] };
  const perCall: CallScenario = {
    key: 'c',
    name: 'c  spawn per call',
    description: 'new StdioClientTransport + Client.connect (spawns fx, handshake) + callTool + close (waits for the process to exit), every call.',
    samples: [],
    async sample(timed) {
      const t0 = performance.now();
      const { client, transport } = spawnFx();
      try {
        await client.connect(transport);
        const t1 = performance.now();
        await sdkConvert(client);
        const t2 = performance.now();
        await client.close();
        const t3 = performance.now();
        if (timed) {
          spawnParts.connect.push(t1 - t0);
          spawnParts.call.push(t2 - t1);
          spawnParts.close.push(t3 - t2);
        }
        return t3 - t0;
      } finally {
        await client.close().catch(() => undefined);
      }
    },
    finish: async () => undefined,
  };

  // Phase 1: a, a', callMcpTool(), b, round-robin, the starting scenario rotated each iteration.
  const interleaved = [mcpTurn, nativeTurn, inProcess, sdkCall];
  const total = opts.warmup + opts.calls;
  process.stderr.write(`bench (MCP): ${opts.warmup} warm-up + ${opts.calls} timed calls, ${interleaved.length} ways interleaved\n`);
  let t = performance.now();
  try {
    for (let i = 0; i < total; i++) {
      for (let k = 0; k < interleaved.length; k++) {
        ctx.checkInterrupted();
        const s = interleaved[(i + k) % interleaved.length]!;
        const timed = i >= opts.warmup;
        const elapsed = await s.sample(timed);
        if (timed) s.samples.push(elapsed);
      }
      if ((i + 1) % 50 === 0 || i + 1 === total) process.stderr.write(`  ${i + 1}/${total} calls per way (${i < opts.warmup ? 'warm-up' : 'timed'})\n`);
    }
    for (const s of interleaved) await s.finish();
  } catch (err) {
    // Conversations left open: end them so they do not linger on the server.
    await Promise.all([mcpTurn.abort(), nativeTurn.abort()]);
    throw err;
  }
  const phase1Ms = performance.now() - t;
  await stopWorker();

  // Phase 2: c alone.
  process.stderr.write(`bench (MCP): ${opts.spawnWarmup} warm-up + ${opts.spawnCalls} timed calls spawning the server each time\n`);
  t = performance.now();
  for (let i = 0; i < opts.spawnWarmup + opts.spawnCalls; i++) {
    ctx.checkInterrupted();
    const timed = i >= opts.spawnWarmup;
    const elapsed = await perCall.sample(timed);
    if (timed) perCall.samples.push(elapsed);
  }
  const spawnMs = performance.now() - t;

  return {
    scenarios: [...interleaved, perCall],
    activityMs: { [mcpTurn.key]: mcpTurn.activityMs, [nativeTurn.key]: nativeTurn.activityMs },
    conversations: { [mcpTurn.key]: mcpTurn.conversations, [nativeTurn.key]: nativeTurn.conversations },
    spawnParts,
    phase1Ms,
    spawnMs,
  };
}

async function benchDiscovery(ctx: McpBenchContext, opts: McpBenchOptions, dir: string): Promise<{ results: DiscoverySamples[]; ms: number }> {
  const counts = opts.endpointCounts;
  const files = new Map(counts.map((n) => [n, fxRegistry(dir, n)]));
  const results = counts.map((n): DiscoverySamples => ({ endpoints: n, tools: 3 * n, cold: [], warmHit: [], warmRelist: [], poolClose: [] }));
  process.stderr.write(`bench (MCP): discovery over ${counts.join(', ')} endpoints, ${opts.coldRuns} cold runs each\n`);
  const t = performance.now();
  // One untimed run first, so the first timed one does not pay for cold file caches.
  await discoveryRun(files.get(counts[0]!)!, counts[0]!, opts, { ...results[0]!, cold: [], warmHit: [], warmRelist: [], poolClose: [] }, ctx);
  for (let i = 0; i < opts.coldRuns; i++) {
    for (let k = 0; k < counts.length; k++) {
      ctx.checkInterrupted();
      const r = results[(i + k) % counts.length]!;
      await discoveryRun(files.get(r.endpoints)!, r.endpoints, opts, r, ctx);
    }
    process.stderr.write(`  ${i + 1}/${opts.coldRuns} cold runs per endpoint count\n`);
  }
  return { results, ms: performance.now() - t };
}

// ---- reporting --------------------------------------------------------------------------------------------

function render(opts: McpBenchOptions, call: CallResults, discovery: { results: DiscoverySamples[]; ms: number }, measureMs: number): McpBenchResult {
  const stats = new Map(call.scenarios.map((s) => [s.key, summarize(s.samples)]));
  const a = stats.get('a')!;
  const b = stats.get('b')!;
  const c = stats.get('c')!;
  const native = stats.get("a'")!;

  const callRows = [
    ['MCP tool call (fx convert, stdio)', 'n', 'p50 ms', 'p95 ms', 'mean ms', 'p50 vs a', 'p95 vs a'],
    ...call.scenarios.map((s) => {
      const st = stats.get(s.key)!;
      return [s.name, String(st.n), ms(st.p50), ms(st.p95), ms(st.mean), s.key === 'a' ? '—' : ratio(st.p50, a.p50), s.key === 'a' ? '—' : ratio(st.p95, a.p95)];
    }),
  ];
  const ratios = {
    'b:a': { p50: b.p50 / a.p50, p95: b.p95 / a.p95 },
    'c:a': { p50: c.p50 / a.p50, p95: c.p95 / a.p95 },
    'c:b': { p50: c.p50 / b.p50, p95: c.p95 / b.p95 },
    "a:a'": { p50: a.p50 / native.p50, p95: a.p95 / native.p95 },
  };
  const p50Of = (xs: number[] | undefined) => (xs && xs.length ? summarize(xs).p50 : NaN);
  const activityLine = (key: string) =>
    Object.entries(call.activityMs[key] ?? {})
      .map(([name, xs]) => `${name} ${ms(p50Of(xs))}`)
      .join(', ');

  const byN = discovery.results.map((r) => ({
    r,
    cold: summarize(r.cold),
    hit: summarize(r.warmHit),
    relist: summarize(r.warmRelist),
    close: summarize(r.poolClose),
  }));
  const coldOne = byN.find((x) => x.r.endpoints === 1)?.cold ?? byN[0]!.cold;
  const discoveryRows = [
    ['endpoints', 'tools', 'cold p50', 'cold p95', 'cold vs N=1', 're-list p50', 're-list p95', 'hit p50', 'hit p95', 'cold:re-list', 'cold:hit', 're-list:hit'],
    ...byN.map(({ r, cold, hit, relist }) => [
      String(r.endpoints),
      String(r.tools),
      ms(cold.p50),
      ms(cold.p95),
      ratio(cold.p50, coldOne.p50),
      ms(relist.p50),
      ms(relist.p95),
      ms(hit.p50),
      ms(hit.p95),
      ratio(cold.p50, relist.p50),
      ratio(cold.p50, hit.p50),
      ratio(relist.p50, hit.p50),
    ]),
  ];
  const sp = call.spawnParts;
  const lines = [
    '',
    `MCP: demo server fx over stdio (${FX_COMMAND}). a, a', callMcpTool() and b interleaved round-robin, ` +
      `${opts.warmup} warm-up calls each discarded; c alone afterwards (${opts.spawnWarmup} warm-up).`,
    `Turns: scripted model (no latency), VALIDATE_PROMPTS=false, one worker; a new conversation every ${opts.turnsPerConversation} turns, outside the timed window.`,
    '',
    table(callRows),
    '',
    `Ratios (p50 / p95): b:a ${ratio(b.p50, a.p50)} / ${ratio(b.p95, a.p95)}, c:a ${ratio(c.p50, a.p50)} / ${ratio(c.p95, a.p95)}, ` +
      `c:b ${ratio(c.p50, b.p50)} / ${ratio(c.p95, b.p95)}; a:a' ${ratio(a.p50, native.p50)} / ${ratio(a.p95, native.p95)} ` +
      `(MCP turn ${a.p50 >= native.p50 ? '+' : '−'}${ms(Math.abs(a.p50 - native.p50))} ms at p50 over the native one-tool turn).`,
    `Activity run time p50 (ms, history timestamps): a: ${activityLine('a')}; a': ${activityLine("a'")}.`,
    `c split p50 (ms): spawn + connect ${ms(p50Of(sp.connect))}, callTool ${ms(p50Of(sp.call))}, close (process exit) ${ms(p50Of(sp.close))}.`,
    '',
    `MCP discovery: McpDiscovery.catalog() over N fx stdio endpoints (ms). cold: a fresh pool, spawns N servers and lists them ` +
      `(${opts.coldRuns} runs per N, pool closed after each); re-list: after invalidate(), over the live pooled sessions ` +
      `(${opts.warmRelistsPerPool} per run); hit: nothing changed, cached catalog (${opts.warmHitsPerPool} per run).`,
    table(discoveryRows),
    `Closing a pool p50 (ms): ${byN.map(({ r, close }) => `N=${r.endpoints} ${ms(close.p50)}`).join(', ')}.`,
    `MCP measuring ${(measureMs / 1000).toFixed(1)} s (calls ${(call.phase1Ms / 1000).toFixed(1)} s, spawn per call ` +
      `${(call.spawnMs / 1000).toFixed(1)} s, discovery ${(discovery.ms / 1000).toFixed(1)} s).`,
  ];

  const json = {
    benchmark: 'MCP tool call and discovery',
    server: { name: 'fx', transport: 'stdio', command: FX_COMMAND },
    options: opts,
    measureMs: round(measureMs, 1),
    call: {
      tool: 'convert',
      args: CONVERT_ARGS,
      order: "a, a', callMcpTool, b interleaved round-robin (start rotated each iteration); c afterwards, alone",
      percentileMethod: 'nearest rank',
      conversationsStarted: call.conversations,
      results: call.scenarios.map((s) => {
        const st = stats.get(s.key)!;
        return {
          key: s.key,
          scenario: s.name.trim(),
          description: s.description,
          iterations: st.n,
          ms: roundSummary(st),
          samplesMs: s.samples.map((x) => round(x)),
        };
      }),
      ratios: Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, { p50: round(v.p50, 4), p95: round(v.p95, 4) }])),
      mcpTurnMinusNativeTurnP50Ms: round(a.p50 - native.p50),
      activityP50Ms: Object.fromEntries(
        Object.entries(call.activityMs).map(([key, byName]) => [key, Object.fromEntries(Object.entries(byName).map(([n, xs]) => [n, round(p50Of(xs))]))]),
      ),
      spawnPerCallP50Ms: { connect: round(p50Of(sp.connect)), callTool: round(p50Of(sp.call)), close: round(p50Of(sp.close)) },
      phaseMs: { interleaved: round(call.phase1Ms, 1), spawnPerCall: round(call.spawnMs, 1) },
    },
    discovery: {
      note: 'cold: fresh McpPool + McpDiscovery (spawn N, handshake, tools/list); warmRelist: invalidate() then catalog() over pooled sessions; warmHit: catalog() unchanged',
      ms: round(discovery.ms, 1),
      results: byN.map(({ r, cold, hit, relist, close }) => ({
        endpoints: r.endpoints,
        tools: r.tools,
        cold: { iterations: cold.n, ms: roundSummary(cold), samplesMs: r.cold.map((x) => round(x)) },
        warmRelist: { iterations: relist.n, ms: roundSummary(relist) },
        warmHit: { iterations: hit.n, ms: roundSummary(hit, 4) },
        poolClose: { iterations: close.n, ms: roundSummary(close) },
        ratios: {
          coldVsN1P50: round(cold.p50 / coldOne.p50, 3),
          coldToRelistP50: round(cold.p50 / relist.p50, 2),
          coldToHitP50: round(cold.p50 / hit.p50, 1),
          relistToHitP50: round(relist.p50 / hit.p50, 1),
        },
      })),
    },
  };
  return { text: lines.join('\n'), json };
}
