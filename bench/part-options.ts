// What each part of the bench counts (the shapes of FULL and QUICK in options.ts), one interface per part.

/** The chat-turn scenarios (floor, text, validated text, one tool), interleaved. */
export interface TurnOptions {
  /** Timed turns per scenario. */
  iterations: number;
  /** Untimed turns per scenario before them. */
  warmup: number;
  /** A new conversation (or floor workflow) every this many turns. */
  turnsPerConversation: number;
}

/** A tool step after an approval (issue 29): BookPTO as a local activity vs as an activity of its own. */
export interface ToolStepOptions {
  runs: number;
  /** Interleaved confirm → reply steps per path and run. */
  iterations: number;
  /** In-process calls of CurrentPTO, through the dispatcher and bare. */
  overheadCalls: number;
}

/** One model wait per turn (issue 11): a model of fixed latency, validation on against off. */
export interface OneModelWaitOptions {
  /** The model's latencies per call: each is measured in `runs` runs of `iterations` interleaved turns. */
  latenciesMs: number[];
  runs: number;
  iterations: number;
}

/** SearchTools (issue 13): turns with it and with the full list. */
export interface ToolSearchOptions {
  turns: number;
}

/** The MCP call and discovery benchmarks. */
export interface McpOptions {
  /** Timed calls for a, a+, a', callMcpTool() and b. */
  calls: number;
  /** Timed calls for c, a process spawn each. */
  spawnCalls: number;
  warmup: number;
  /** Spawning is slow and warms nothing but file caches: a few warm-up calls are enough. */
  spawnWarmup: number;
  turnsPerConversation: number;
  /** Cold discoveries per endpoint count. */
  coldRuns: number;
  /** Endpoint counts for discovery. */
  endpointCounts: number[];
  /** Per cold pool: warm cache hits, and warm re-lists. */
  warmHitsPerPool: number;
  warmRelistsPerPool: number;
  /** The hung endpoint's timeoutMs in a+'s registry (none: the registry's default). */
  hungTimeoutMs?: number;
}

/** HTTP APIs as tools (issue 24): a ~1,000-operation document loaded, an HTTP tool turn vs a native one, request bytes. */
export interface HttpApisOptions {
  /** ApiCatalog.list on GitHub's document, each on a new catalog. */
  coldLoads: number;
  /** Then on the last one, the text unchanged. */
  warmLoads: number;
  /** Timed turns each, HTTP tool and native tool, interleaved. */
  turns: number;
  warmup: number;
  turnsPerConversation: number;
}

/** Files and big results (issue 27): bytes per turn with and without the claim check, a 5 MB PDF upload to reply. */
export interface FilesOptions {
  /** Turns of the big-result conversation, each mode (a ~3 MB tool result each, then ReadFile). */
  turns: number;
  /** Timed runs of upload → attached turn, against the same turn without the file, and a ReadFile turn. */
  uploads: number;
  /** Untimed runs before them. */
  uploadWarmup: number;
}

/** The durability benchmarks. */
export interface DurabilityOptions {
  /** Text turns in the history-growth conversation. */
  historyTurns: number;
  /** Worker kills during a model call (0: none). */
  recoveryRuns: number;
}

/** The HTTP API benchmarks (issue 10): first token at an SSE client, fan-out to many subscribers, the API's overhead. */
export interface ApiOptions {
  /** Timed turns per first-token row. */
  firstTokenTurns: number;
  /** Untimed turns before the first-token rows and each overhead path. */
  warmup: number;
  /** The streaming model's time to first token. */
  ttftMs: number;
  /** Its pause between text chunks. */
  chunkMs: number;
  /** SSE subscribers per fan-out row. */
  subscribers: number;
  /** Conversations the spread fan-out row divides them over (1: no such row). */
  conversations: number;
  /** Turns per conversation in each fan-out row. */
  fanoutTurns: number;
  /** Timed text turns per path, API vs AgentClient.say. */
  overheadTurns: number;
  turnsPerConversation: number;
}

/** The lean-worker benchmarks (issue 11): the compiled worker against `npm run worker` (tsx), each in its own process. */
export interface WorkerBenchOptions {
  /** Starts of each worker, alternating, for start time and idle RSS. */
  starts: number;
  /** Wait after the first poll (and after starting the conversations) before reading RSS. */
  settleMs: number;
  /** Idle open conversations the compiled worker holds. */
  conversations: number;
  /** Conversations being started at once. */
  startConcurrency: number;
  /** Text turns on evicted and on cached conversations each (0: none). */
  turns: number;
  /** Also hold the conversations with the SDK's default cache size, for comparison (about 2 minutes in a full run). */
  compareSdkCache: boolean;
  /** Also hold them with tracing on (the traced bundle, spans to a receiver that drops them). */
  compareTraced: boolean;
}

/** Memory per cached conversation (issue 29): the compiled worker holding N conversations, greeted and after turns. */
export interface MemoryOptions {
  /** How many conversations the worker holds, each size in a worker process of its own. */
  sizes: number[];
  /** Runs of every size (min / median / max). */
  runs: number;
  /** Turns each conversation takes after its greeting: the PTO balance question and a text turn, in turn. */
  turns: number;
  /** Conversations started (or taking their turns) at once. */
  concurrency: number;
  /** Wait after the last start or turn before the first RSS reading (the work's garbage still held); the second is
   * after a full garbage collection. */
  settleMs: number;
}

/** Scale on one box (issue 11): worker processes of their own, the zero-latency scripted model. */
export interface ScaleOptions {
  /** Conversations taking turns at once. */
  active: number;
  /** Turns each of them takes, back to back. */
  turns: number;
  /** Conversations started, each then taking one turn. */
  starts: number;
  /** Of those, how many are under way at once. */
  startConcurrency: number;
  /** A user's mean pause between turns, one paced phase each. */
  thinkMs: number[];
  /** How long each paced phase runs. */
  pacedSeconds: number;
  /** Rounds of the same load on one worker process and on two, alternating (0: none). */
  workerRounds: number;
}

export interface Counts {
  turns: TurnOptions;
  oneModelWait: OneModelWaitOptions;
  toolStep: ToolStepOptions;
  toolSearch: ToolSearchOptions;
  mcp: McpOptions;
  httpApis: HttpApisOptions;
  files: FilesOptions;
  durability: DurabilityOptions;
  api: ApiOptions;
  worker: WorkerBenchOptions;
  memory: MemoryOptions;
  scale: ScaleOptions;
}
