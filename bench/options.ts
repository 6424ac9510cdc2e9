// Every knob of `npm run bench`, read once at start-up so that a bad value fails before a server starts.
import { envInt } from './stats';

/** The chat-turn scenarios (floor, text, validated text, one tool). */
export interface TurnOptions {
  /** BENCH_ITERATIONS: timed turns per scenario (default 200). */
  iterations: number;
  /** BENCH_WARMUP: untimed turns per scenario before them (default 20). */
  warmup: number;
  /** BENCH_TURNS_PER_CONVERSATION: a new conversation (or floor workflow) every this many turns (default 50). */
  turnsPerConversation: number;
}

/** The MCP call and discovery benchmarks; BENCH_WARMUP and BENCH_TURNS_PER_CONVERSATION apply as above. */
export interface McpOptions {
  /** BENCH_MCP_ITERATIONS: timed calls for a, a', callMcpTool() and b (default BENCH_ITERATIONS if set, else 100). */
  calls: number;
  /** BENCH_MCP_SPAWN_ITERATIONS: timed calls for c, a process spawn each (default: the above, at most 100). */
  spawnCalls: number;
  warmup: number;
  /** Spawning is slow and warms nothing but file caches: a few warm-up calls are enough. */
  spawnWarmup: number;
  turnsPerConversation: number;
  /** BENCH_MCP_COLD_RUNS: cold discoveries per endpoint count (default 5, at most the call iterations). */
  coldRuns: number;
  /** BENCH_MCP_ENDPOINTS: endpoint counts for discovery, comma-separated (default 1,10,20). */
  endpointCounts: number[];
  /** Per cold pool: warm cache hits, and warm re-lists. */
  warmHitsPerPool: number;
  warmRelistsPerPool: number;
  /** BENCH_MCP_HUNG_TIMEOUT_MS: the hung endpoint's timeoutMs in a+'s registry (default: the registry's default). */
  hungTimeoutMs?: number;
}

/** The durability benchmarks. */
export interface DurabilityOptions {
  /** BENCH_HISTORY_TURNS: text turns in the history-growth conversation (default 300). */
  historyTurns: number;
  /** BENCH_RECOVERY_RUNS: worker kills during a model call (default 3; 0: none). */
  recoveryRuns: number;
}

export function readDurabilityOptions(env: NodeJS.ProcessEnv = process.env): DurabilityOptions {
  return {
    historyTurns: envInt(env, 'BENCH_HISTORY_TURNS', 300, 1),
    recoveryRuns: envInt(env, 'BENCH_RECOVERY_RUNS', 3, 0),
  };
}

export function readTurnOptions(env: NodeJS.ProcessEnv = process.env): TurnOptions {
  return {
    iterations: envInt(env, 'BENCH_ITERATIONS', 200, 1),
    warmup: envInt(env, 'BENCH_WARMUP', 20, 0),
    turnsPerConversation: envInt(env, 'BENCH_TURNS_PER_CONVERSATION', 50, 1),
  };
}

export function readMcpOptions(env: NodeJS.ProcessEnv = process.env): McpOptions {
  const calls = envInt(env, 'BENCH_MCP_ITERATIONS', envInt(env, 'BENCH_ITERATIONS', 100, 1), 1);
  const warmup = envInt(env, 'BENCH_WARMUP', 20, 0);
  const coldRuns = envInt(env, 'BENCH_MCP_COLD_RUNS', Math.min(5, calls), 1);
  return {
    calls,
    spawnCalls: envInt(env, 'BENCH_MCP_SPAWN_ITERATIONS', Math.min(calls, 100), 1),
    warmup,
    spawnWarmup: Math.min(warmup, 3),
    turnsPerConversation: envInt(env, 'BENCH_TURNS_PER_CONVERSATION', 50, 1),
    coldRuns,
    endpointCounts: endpointCounts(env),
    warmHitsPerPool: 200,
    warmRelistsPerPool: Math.max(1, Math.ceil(calls / coldRuns)),
    hungTimeoutMs: env.BENCH_MCP_HUNG_TIMEOUT_MS ? envInt(env, 'BENCH_MCP_HUNG_TIMEOUT_MS', 0, 100) : undefined,
  };
}

function endpointCounts(env: NodeJS.ProcessEnv): number[] {
  const raw = env.BENCH_MCP_ENDPOINTS?.trim() || '1,10,20';
  const counts = raw.split(',').map((s) => Number(s.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 200)) {
    throw new Error(`BENCH_MCP_ENDPOINTS must be whole numbers from 1 to 200, comma-separated, got "${raw}"`);
  }
  return counts;
}

/** The HTTP API benchmarks (issue 10): first token at an SSE client, fan-out to many subscribers, the API's overhead. */
export interface ApiOptions {
  /** BENCH_API_ITERATIONS: timed turns per first-token row (default 30). */
  firstTokenTurns: number;
  /** BENCH_API_WARMUP: untimed turns before the first-token rows and each overhead path (default 3). */
  warmup: number;
  /** BENCH_API_TTFT_MS: the streaming model's time to first token (default 200). */
  ttftMs: number;
  /** BENCH_API_CHUNK_MS: its pause between text chunks (default 20). */
  chunkMs: number;
  /** BENCH_API_SUBSCRIBERS: SSE subscribers per fan-out row (default 200). */
  subscribers: number;
  /** BENCH_API_CONVERSATIONS: conversations the spread fan-out row divides them over (default 20; 1: no such row). */
  conversations: number;
  /** BENCH_API_FANOUT_TURNS: turns per conversation in each fan-out row (default 5). */
  fanoutTurns: number;
  /** BENCH_API_OVERHEAD_ITERATIONS: timed text turns per path, API vs AgentClient.say (default 100). */
  overheadTurns: number;
  turnsPerConversation: number;
}

export function readApiOptions(env: NodeJS.ProcessEnv = process.env): ApiOptions {
  return {
    firstTokenTurns: envInt(env, 'BENCH_API_ITERATIONS', 30, 1),
    warmup: envInt(env, 'BENCH_API_WARMUP', 3, 0),
    ttftMs: envInt(env, 'BENCH_API_TTFT_MS', 200, 0),
    chunkMs: envInt(env, 'BENCH_API_CHUNK_MS', 20, 0),
    subscribers: envInt(env, 'BENCH_API_SUBSCRIBERS', 200, 1),
    conversations: envInt(env, 'BENCH_API_CONVERSATIONS', 20, 1),
    fanoutTurns: envInt(env, 'BENCH_API_FANOUT_TURNS', 5, 1),
    overheadTurns: envInt(env, 'BENCH_API_OVERHEAD_ITERATIONS', 100, 1),
    turnsPerConversation: envInt(env, 'BENCH_TURNS_PER_CONVERSATION', 50, 1),
  };
}

/** BENCH_ONLY=api runs the API benchmarks alone (a quicker run; results in bench/results/latest-api.json); BENCH_ONLY=worker
 * the lean-worker ones (bench/results/latest-worker.json); BENCH_ONLY=delegation the delegation ones (latest-delegation.json). */
const PARTS = ['api', 'worker', 'delegation', 'toolsearch', 'scale'] as const;
export type BenchPartName = (typeof PARTS)[number];

/** BENCH_ONLY: one part of the benchmark alone (its JSON in bench/results/latest-<part>.json). */
export function readOnly(env: NodeJS.ProcessEnv = process.env): BenchPartName | undefined {
  const raw = env.BENCH_ONLY?.trim();
  if (!raw) return undefined;
  if (!(PARTS as readonly string[]).includes(raw))
    throw new Error(`BENCH_ONLY must be one of ${PARTS.join(', ')} or unset, got "${raw}"`);
  return raw as BenchPartName;
}

/** The lean-worker benchmarks (issue 11): the compiled worker against `npm run worker` (tsx), each in its own process. */
export interface WorkerBenchOptions {
  /** BENCH_WORKER_STARTS: starts of each worker, alternating, for start time and idle RSS (default 3). */
  starts: number;
  /** BENCH_WORKER_SETTLE_MS: wait after the first poll (and after starting the conversations) before reading RSS (default 5000). */
  settleMs: number;
  /** BENCH_WORKER_CONVERSATIONS: idle open conversations the compiled worker holds (default 1000). */
  conversations: number;
  /** BENCH_WORKER_START_CONCURRENCY: conversations being started at once (default 20). */
  startConcurrency: number;
  /** BENCH_WORKER_TURNS: text turns on evicted and on cached conversations each (default 20; 0: none). */
  turns: number;
  /** BENCH_WORKER_BUILD: compile the worker first, so it runs these sources (default 1; 0: use dist/ as it is). */
  build: boolean;
  /** BENCH_WORKER_SDK_CACHE: also hold the conversations with the SDK's default cache size, for comparison (default 1). */
  compareSdkCache: boolean;
  /** BENCH_WORKER_TRACED: also hold them with tracing on (the traced bundle, spans to a receiver that drops them) (default 1). */
  compareTraced: boolean;
}

export function readWorkerBenchOptions(env: NodeJS.ProcessEnv = process.env): WorkerBenchOptions {
  return {
    starts: envInt(env, 'BENCH_WORKER_STARTS', 3, 1),
    settleMs: envInt(env, 'BENCH_WORKER_SETTLE_MS', 5000, 0),
    conversations: envInt(env, 'BENCH_WORKER_CONVERSATIONS', 1000, 1),
    startConcurrency: envInt(env, 'BENCH_WORKER_START_CONCURRENCY', 20, 1),
    turns: envInt(env, 'BENCH_WORKER_TURNS', 20, 0),
    build: envInt(env, 'BENCH_WORKER_BUILD', 1, 0) > 0,
    compareSdkCache: envInt(env, 'BENCH_WORKER_SDK_CACHE', 1, 0) > 0,
    compareTraced: envInt(env, 'BENCH_WORKER_TRACED', 1, 0) > 0,
  };
}

/** Round trips per step (issue 11): eager activity dispatch on/off and a heartbeat at activity start, interleaved. */
export interface RoundTripOptions {
  /** BENCH_ROUNDTRIP_ITERATIONS: timed turns per row (default 100). */
  iterations: number;
  /** BENCH_ROUNDTRIP_WARMUP: untimed turns per row before them (default 10). */
  warmup: number;
  turnsPerConversation: number;
}

export function readRoundTripOptions(env: NodeJS.ProcessEnv = process.env): RoundTripOptions {
  return {
    iterations: envInt(env, 'BENCH_ROUNDTRIP_ITERATIONS', 100, 1),
    warmup: envInt(env, 'BENCH_ROUNDTRIP_WARMUP', 10, 0),
    turnsPerConversation: envInt(env, 'BENCH_TURNS_PER_CONVERSATION', 50, 1),
  };
}

/** One model wait per turn (issue 11): a model of fixed latency (BENCH_MODEL_LATENCY_MS, default 300 ms). */
export function readOneModelWaitOptions(env: NodeJS.ProcessEnv = process.env): {
  latencyMs: number;
  iterations: number;
} {
  return {
    latencyMs: envInt(env, 'BENCH_MODEL_LATENCY_MS', 300, 0),
    iterations: envInt(env, 'BENCH_ONE_WAIT_ITERATIONS', 20, 1),
  };
}

/** Delegation (issue 12): 4 delegates side by side vs one by one, and one delegation vs the tool in the lead. */
export interface DelegationOptions {
  /** BENCH_MODEL_LATENCY_MS: the slow model's latency per call; the plans also run with a zero-latency one (default 300). */
  latencyMs: number;
  /** BENCH_DELEGATION_ITERATIONS: timed turns per plan row (default 8). */
  iterations: number;
  /** BENCH_DELEGATION_OVERHEAD_ITERATIONS: timed turns per path of one delegation's cost (default 30). */
  overheadIterations: number;
  /** BENCH_DELEGATION_WARMUP: untimed turns per row before them (default 1). */
  warmup: number;
  turnsPerConversation: number;
}

export function readDelegationOptions(env: NodeJS.ProcessEnv = process.env): DelegationOptions {
  return {
    latencyMs: envInt(env, 'BENCH_MODEL_LATENCY_MS', 300, 0),
    iterations: envInt(env, 'BENCH_DELEGATION_ITERATIONS', 8, 1),
    overheadIterations: envInt(env, 'BENCH_DELEGATION_OVERHEAD_ITERATIONS', 30, 1),
    warmup: envInt(env, 'BENCH_DELEGATION_WARMUP', 1, 0),
    turnsPerConversation: envInt(env, 'BENCH_TURNS_PER_CONVERSATION', 50, 1),
  };
}

/** SearchTools (issue 13): BENCH_TOOL_SEARCH_TURNS turns with it and with the full list (default 5). */
export function readToolSearchOptions(env: NodeJS.ProcessEnv = process.env): { turns: number } {
  return { turns: envInt(env, 'BENCH_TOOL_SEARCH_TURNS', 5, 1) };
}

/** Scale on one box (issue 11): worker processes of their own, the zero-latency scripted model. */
export interface ScaleOptions {
  /** BENCH_SCALE_ACTIVE: conversations taking turns at once (default 100). */
  active: number;
  /** BENCH_SCALE_TURNS: turns each of them takes, back to back (default 10). */
  turns: number;
  /** BENCH_SCALE_STARTS: conversations started, each then taking one turn (default 1000). */
  starts: number;
  /** BENCH_SCALE_START_CONCURRENCY: of those, how many are under way at once (default 100). */
  startConcurrency: number;
  /** BENCH_SCALE_THINK_MS: a user's mean pause between turns, for the paced phases, comma-separated (default 5000,2500). */
  thinkMs: number[];
  /** BENCH_SCALE_PACED_SECONDS: how long each paced phase runs (default 45). */
  pacedSeconds: number;
  /** BENCH_SCALE_WORKER_ROUNDS: rounds of the same load on one worker process and on two, alternating (default 2; 0: none). */
  workerRounds: number;
}

export function readScaleOptions(env: NodeJS.ProcessEnv = process.env): ScaleOptions {
  return {
    active: envInt(env, 'BENCH_SCALE_ACTIVE', 100, 1),
    turns: envInt(env, 'BENCH_SCALE_TURNS', 10, 1),
    starts: envInt(env, 'BENCH_SCALE_STARTS', 1000, 1),
    startConcurrency: envInt(env, 'BENCH_SCALE_START_CONCURRENCY', 100, 1),
    workerRounds: envInt(env, 'BENCH_SCALE_WORKER_ROUNDS', 2, 0),
    thinkMs: thinkTimes(env),
    pacedSeconds: envInt(env, 'BENCH_SCALE_PACED_SECONDS', 45, 1),
  };
}

function thinkTimes(env: NodeJS.ProcessEnv): number[] {
  const raw = env.BENCH_SCALE_THINK_MS?.trim() || '5000,2500';
  const times = raw.split(',').map((s) => Number(s.trim()));
  if (times.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(`BENCH_SCALE_THINK_MS must be whole ms, comma-separated, got "${raw}"`);
  return times;
}

/**
 * `npm run bench -- --quick`: every part with small counts, about a minute in all, for a smoke test (CI); a knob set
 * in the environment still wins. The numbers are too few to compare runs by: it writes latest-quick.json.
 */
export const QUICK_KNOBS: Readonly<Record<string, string>> = {
  BENCH_ITERATIONS: '10',
  BENCH_WARMUP: '2',
  BENCH_TURNS_PER_CONVERSATION: '50',
  BENCH_ROUNDTRIP_ITERATIONS: '4',
  BENCH_ROUNDTRIP_WARMUP: '2',
  BENCH_ONE_WAIT_ITERATIONS: '3',
  BENCH_MCP_ITERATIONS: '5',
  BENCH_MCP_SPAWN_ITERATIONS: '2',
  BENCH_MCP_COLD_RUNS: '1',
  BENCH_MCP_ENDPOINTS: '1,2',
  BENCH_MCP_HUNG_TIMEOUT_MS: '1000',
  BENCH_HISTORY_TURNS: '5',
  BENCH_RECOVERY_RUNS: '0',
  BENCH_API_ITERATIONS: '3',
  BENCH_API_WARMUP: '1',
  BENCH_API_SUBSCRIBERS: '10',
  BENCH_API_CONVERSATIONS: '2',
  BENCH_API_FANOUT_TURNS: '1',
  BENCH_API_OVERHEAD_ITERATIONS: '5',
  BENCH_SCALE_ACTIVE: '10',
  BENCH_SCALE_TURNS: '2',
  BENCH_SCALE_STARTS: '20',
  BENCH_SCALE_START_CONCURRENCY: '10',
  BENCH_SCALE_WORKER_ROUNDS: '0',
  BENCH_SCALE_THINK_MS: '1000',
  BENCH_TOOL_SEARCH_TURNS: '1',
  BENCH_SCALE_PACED_SECONDS: '3',
  // The fixed-latency model's waits dominate a quick run; a shorter one keeps it near a minute.
  BENCH_MODEL_LATENCY_MS: '100',
  BENCH_API_TTFT_MS: '50',
  BENCH_API_CHUNK_MS: '5',
  BENCH_DELEGATION_ITERATIONS: '1',
  BENCH_DELEGATION_OVERHEAD_ITERATIONS: '3',
  BENCH_DELEGATION_WARMUP: '0',
};

/** The command line (`--quick` or nothing) and the environment the knobs are read from. */
export function readMode(
  argv: string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): { quick: boolean; env: NodeJS.ProcessEnv } {
  const unknown = argv.filter((a) => a !== '--quick');
  if (unknown.length)
    throw new Error(
      `npm run bench: unknown argument ${unknown.join(' ')} (the one option is --quick; knobs are BENCH_* variables)`,
    );
  const quick = argv.includes('--quick');
  return { quick, env: quick ? { ...QUICK_KNOBS, ...env } : env };
}
