// Changes to the workflow's command sequence, each behind patched(): a conversation started before a change keeps
// replaying the path it recorded. Named once here, so the ids and why they exist are in one place.
import { BUILTIN_RUN_PATCHES } from '../core/builtin-runs';

export const PATCHES = {
  /** The goal's tools (MCP discovery) are re-resolved before every turn of a goal that selects MCP tools. */
  perTurnToolDiscovery: 'per-turn-tool-discovery',
  /** In multi-goal mode, ListAgents from an agent returns the conversation to the picker. */
  listAgentsReturnsToPicker: 'list-agents-returns-to-picker',
  /** A turn can be cancelled (the cancelTurn signal; tool calls are then waited for until they stop), and waiting
   * for the user is bounded: an approval expires (APPROVAL_TIMEOUT), an idle conversation ends (IDLE_TIMEOUT). */
  cancelAndExpire: 'cancel-and-expire',
  /** Conversations keep the AgentGoal / AgentState / AgentOwner search attributes and a memo title up to date. */
  searchAttributes: 'search-attributes',
  /** An endChat that arrives while the conversation is being summarised for continue-as-new ends it. */
  endSurvivesCarry: 'end-survives-carry',
  /** With VALIDATE_PROMPTS, the prompt is checked and the turn planned in one activity, concurrently: one model wait
   * per turn instead of two in a row (the plan is dropped when the prompt does not fit). */
  oneModelWait: 'one-model-wait',
  /** AskAgent starts child conversations (delegates), whose envelopes come back as the call's result. */
  delegation: 'delegation',
  /** A conversation that reached its token or cost budget ends instead of calling the model again. */
  budgets: 'budgets',
  /** HTTP API operations (`httpApis`) run as the callHttpTool activity. */
  httpApis: 'http-apis',
  /** A model call that keeps failing in a way another model could fix is made again with the next fallback model
   * (LLM_FALLBACK_MODELS, a goal's fallbackModels). */
  modelFallback: 'model-fallback',
  /** A conversation continues as new when Temporal says a newer build became current (workers are versioned and
   * it is pinned to an older one), and every continue-as-new starts the next run on the current build. */
  upgradeOnNewBuild: 'upgrade-on-new-build',
  /** A conversation moves builds only forward: after a rollback it stays on the newer build that wrote its state
   * (newerBuildRouted asks the deployment which way the change went), and a run that starts pinned to a build no
   * longer current (a delegate inherits its parent's) moves to the newer one before it does anything. */
  buildMovesForward: 'build-moves-forward',
  /** AskAgent calls to remote A2A agents (`a2a:<name>`, the registry's `a2aAgents`) run as the askRemoteAgent
   * activity, one remote task each; a goal with delegates is resolved again before each turn, as one with MCP tools
   * is, so a remote agent added to the registry is offered on the next turn. */
  a2aDelegates: 'a2a-delegates',
  /** A native tool served by this worker runs as a local activity: its result is recorded with the workflow task that
   * asked for it (a marker), saving the tool step a workflow task and a server round trip. */
  localNativeTools: 'local-native-tools',
  /** A conversation whose goal says `memory.extract` runs the proposeMemories activity once it has ended. */
  memoryExtract: 'memory-extract',
  /** A message sent while a turn runs does what its goal's (or its own) `whileBusy` says: interrupt joins the turn,
   * cancelling the model call in flight; reject refuses it. Runs started before it queue every message. */
  steering: 'steering',
  /** Each builtin that runs activities of its own came with a patch, named in its file (core/builtin-runs.ts lists
   * them): keyed here by its run's activity. CreateAgent's (createGoal: its check and write) and CreateTool's
   * (createTool: its check and write, and made tools run as the runMadeTool activity) are among them. */
  ...BUILTIN_RUN_PATCHES,
} as const;

export type PatchId = (typeof PATCHES)[keyof typeof PATCHES];

/** How this run was started: versioned paths it takes (patched() answers the workflow read at start). */
export interface RunVersions {
  /** Runs started before per-turn discovery existed never re-resolve tools between turns. */
  refreshToolsEachTurn: boolean;
  /** Runs started before cancelling and APPROVAL_TIMEOUT / IDLE_TIMEOUT existed wait for the user without a timer. */
  cancelAndExpire?: boolean;
  /** Runs started before one-model-wait validate a prompt, then plan: two model calls in a row. */
  oneModelWait?: boolean;
  /** Runs started before budgets existed never stop for spending. */
  budgets?: boolean;
  /** Runs started before worker versioning continue as new on the history's length alone, onto their own build. */
  upgradeOnNewBuild?: boolean;
  /** Runs started before remote A2A agents existed look at a goal's delegates once, at start. */
  refreshDelegates?: boolean;
  /** Runs started before it move to whichever build is current, a rolled-back older one too, and never at start. */
  buildMovesForward?: boolean;
  /** Runs started before steering queue every message sent while a turn runs (whileBusy is `enqueue`). */
  steering?: boolean;
}
