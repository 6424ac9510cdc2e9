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
