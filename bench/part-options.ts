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

/** One model wait per turn (issue 11): a model of fixed latency, validation on against off. */
export interface OneModelWaitOptions {
  /** The model's latencies per call: each is measured in `runs` runs of `iterations` interleaved turns. */
  latenciesMs: number[];
  runs: number;
  iterations: number;
}

/** The MCP call and discovery benchmarks. */
export interface McpOptions {
  /** Timed calls for a, a' and b. */
  calls: number;
  warmup: number;
  turnsPerConversation: number;
  /** Cold discoveries per endpoint count. */
  coldRuns: number;
  /** Endpoint counts for discovery. */
  endpointCounts: number[];
  /** Per cold pool: warm cache hits, and warm re-lists. */
  warmHitsPerPool: number;
  warmRelistsPerPool: number;
}

/** Unattended runs: schedule due time and webhook delivery → the run's first model call. */
export interface UnattendedOptions {
  /** Timed runs of each kind. */
  runs: number;
  warmup: number;
}

/** A2A: a remote agent's turn against our own delegate's, interleaved. */
export interface A2aOptions {
  /** Timed turns per way. */
  turns: number;
  warmup: number;
  /** A new conversation every this many turns. */
  turnsPerConversation: number;
}

/** Owners' memories (issue 42): recall latency, recall quality on the held-out set, what recall adds to a turn. */
export interface RecallOptions {
  /** Generated memories of the owners whose recall is timed, in each database; the held-out facts then join the
   * largest, for the quality among distractors. */
  sizes: number[];
  /** Timed recalls per owner and database (the held-out questions in turn), after `warmup` untimed ones. */
  recalls: number;
  warmup: number;
  /** Timed text turns per way (memory on in each database, MEMORY=off), interleaved, after `turnWarmup`. */
  turns: number;
  turnWarmup: number;
  /** A new conversation every this many turns. */
  turnsPerConversation: number;
}

/** The durability benchmarks. */
export interface DurabilityOptions {
  /** Text turns in the history-growth conversation. */
  historyTurns: number;
  /** Worker kills during a model call (0: none). */
  recoveryRuns: number;
}

/** The HTTP API benchmark (issue 10): first token at an SSE client. */
export interface ApiOptions {
  /** Timed turns per first-token row. */
  firstTokenTurns: number;
  /** Untimed turns before the first-token rows. */
  warmup: number;
  /** The streaming model's time to first token. */
  ttftMs: number;
  /** Its pause between text chunks. */
  chunkMs: number;
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
}

export interface Counts {
  turns: TurnOptions;
  oneModelWait: OneModelWaitOptions;
  mcp: McpOptions;
  a2a: A2aOptions;
  unattended: UnattendedOptions;
  recall: RecallOptions;
  durability: DurabilityOptions;
  api: ApiOptions;
  memory: MemoryOptions;
  scale: ScaleOptions;
  peer: PeerOptions;
}

/** Ours against a bare @temporalio/ai-sdk agent (issue 44), interleaved, in blocks. */
export interface PeerOptions {
  /** Timed turns per side, split evenly over the blocks. */
  textTurns: number;
  toolTurns: number;
  /** Text turns with the model answering after `latencyMs`. */
  slowTurns: number;
  latencyMs: number;
  blocks: number;
  /** Untimed text and tool turns per side before the first block. */
  warmup: number;
}
