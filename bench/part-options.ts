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

/** Round trips per step (issue 11): eager activity dispatch on/off and a heartbeat at activity start, interleaved. */
export type RoundTripOptions = TurnOptions;

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

/** Delegation (issue 12): 4 delegates side by side vs one by one, and one delegation vs the tool in the lead. */
export interface DelegationOptions {
  /** The slow model's latency per call; the plans also run with a zero-latency one. */
  latencyMs: number;
  /** Timed turns per plan row. */
  iterations: number;
  /** Timed turns per path of one delegation's cost. */
  overheadIterations: number;
  warmup: number;
  turnsPerConversation: number;
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

/**
 * The run view's cost (issue 26): open run views (and, for the ratio, the same views of the plain events stream) over
 * many conversations and over one, each for a window while the conversations take turns, then one while they wait.
 */
export interface RunViewOptions {
  /** SSE views open at once in each row. */
  views: number;
  /** Conversations the first rows divide the views over. */
  conversations: number;
  /** Also the rows with every view on one conversation (one watch, or one feed, shared by all). */
  oneConversation: boolean;
  /** The model's latency per call: past a second, a watch also describes the workflow once a second. */
  latencyMs: number;
  /** The window measured while the conversations wait for the user (after their last turn), … */
  idleSeconds: number;
  /**
   * … but for the first row's run views: longer than the server's long poll (20 s), so that each watch's idle poll is
   * answered and renewed in it (a shorter window just after the turns sees none).
   */
  longIdleSeconds: number;
  /** The window measured while they take turns back to back. */
  busySeconds: number;
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

/** The sandbox for model-written code. */
export interface SandboxOptions {
  /** Timed calls, each in the sandbox and natively. */
  calls: number;
}

/** Made tools (issue 23): calls through the registry, draft checks, and many calls for memory. */
export interface MadeToolsOptions {
  /** Timed calls, each through MadeTools.run, the bare sandbox and natively. */
  calls: number;
  /** Timed draft checks after the first. */
  checks: number;
  /** Calls of the made tool alone, memory read before and after. */
  memoryCalls: number;
}

export interface Counts {
  turns: TurnOptions;
  roundTrips: RoundTripOptions;
  oneModelWait: OneModelWaitOptions;
  toolStep: ToolStepOptions;
  delegation: DelegationOptions;
  toolSearch: ToolSearchOptions;
  sandbox: SandboxOptions;
  madeTools: MadeToolsOptions;
  mcp: McpOptions;
  httpApis: HttpApisOptions;
  files: FilesOptions;
  durability: DurabilityOptions;
  api: ApiOptions;
  runView: RunViewOptions;
  worker: WorkerBenchOptions;
  memory: MemoryOptions;
  scale: ScaleOptions;
}
