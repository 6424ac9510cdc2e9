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
}

/** The durability benchmarks. */
export interface DurabilityOptions {
  /** BENCH_HISTORY_TURNS: text turns in the history-growth conversation (default 300). */
  historyTurns: number;
  /** BENCH_RECOVERY_RUNS: worker kills during a model call (default 3). */
  recoveryRuns: number;
}

export function readDurabilityOptions(env: NodeJS.ProcessEnv = process.env): DurabilityOptions {
  return { historyTurns: envInt(env, 'BENCH_HISTORY_TURNS', 300, 1), recoveryRuns: envInt(env, 'BENCH_RECOVERY_RUNS', 3, 1) };
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

/** BENCH_ONLY=api runs the API benchmarks alone (a quicker run; results in bench/results/latest-api.json). */
export function readOnly(env: NodeJS.ProcessEnv = process.env): 'api' | undefined {
  const raw = env.BENCH_ONLY?.trim();
  if (!raw) return undefined;
  if (raw !== 'api') throw new Error(`BENCH_ONLY must be "api" (the API benchmarks alone) or unset, got "${raw}"`);
  return raw;
}
