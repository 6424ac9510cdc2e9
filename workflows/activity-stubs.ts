// Every activity the workflows schedule, with its timeout and retry policy, in one place. Temporal owns retries;
// provider SDKs run with theirs off. Workflows call these verbs and never set activity options themselves.
import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  type ActivityFunctionWithOptions,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';
import {
  FailureTypes,
  type A2aActivities,
  type CodeActivities,
  type DeploymentActivities,
  type OutcomeActivities,
  type MemoryActivities,
  type GoalActivities,
  type LlmActivities,
  type McpActivities,
  type ToolActivity,
  type ToolCaller,
} from '../core/activity-types';
import { ACTIVITY_STEPS } from '../core/activity-steps';
import { BUILTIN_RUNS, type BuiltinRun, type BuiltinStep } from '../core/builtin-runs';
import type { GoalReason } from '../core/effects';
import type { HookedOutcome } from '../core/hooks';
import { LOCAL_OWNER } from '../core/blobs';
import { MODEL_RETRY } from '../core/model-retry';
import type { McpToolRef, ResolvedGoal, ToolSpec, Usage } from '../core/types';

const goalRetry = {
  maximumAttempts: 3,
  nonRetryableErrorTypes: [FailureTypes.UnknownGoal, FailureTypes.Misconfigured],
};
const goals = proxyActivities<GoalActivities>({ startToCloseTimeout: '10 seconds', retry: goalRetry });
/** The per-turn refresh: usually a file stat and a cached catalog, so a local activity (no extra workflow-task
 * round trip); a cold discovery still fits its timeout. */
const localGoals = proxyLocalActivities<GoalActivities>({ startToCloseTimeout: '30 seconds', retry: goalRetry });

export const { loadSettings, listAgents, describeAgents, describeGoalFiles, manageGoal } = goals;

/** Where the deployment routes: read from the server, a few retries; a conversation that cannot tell stays put. */
export const { newerBuildRouted } = proxyActivities<DeploymentActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/** An unattended run's outcome to its `notify` URL: retried with backoff for a day (the receiver may be down for a
 * while); each attempt carries the run's Idempotency-Key. */
export const { deliverOutcome } = proxyActivities<OutcomeActivities>({
  // An attempt gives up after 15 s (outcome-activities.ts); one whose worker died is tried again after this.
  startToCloseTimeout: '20 seconds',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** People's requests of their memories, through the desk: the store answers at once; a refusal is not retried. */
export const { manageMemory } = proxyActivities<MemoryActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    maximumAttempts: 3,
    nonRetryableErrorTypes: [FailureTypes.NotFound, FailureTypes.Refused, FailureTypes.Invalid],
  },
});

export function resolveGoal(
  goalId: string,
  why: GoalReason['why'] | 'start' = 'start',
  known?: string,
): Promise<ResolvedGoal> {
  return why === 'refresh' ? localGoals.resolveGoal(goalId, known) : goals.resolveGoal(goalId);
}

/**
 * How long a call may go without a heartbeat before Temporal gives it to another worker: the conversation's
 * HEARTBEAT_TIMEOUT (Settings.heartbeatTimeoutSeconds); runs recorded before it existed keep 10 s. Long calls beat
 * every 2 s (activities/heartbeat.ts), so a dead worker's call moves on within this, not after its whole timeout.
 * Replay compares an activity's type and id, not its timeouts.
 */
function heartbeat(seconds = 10): ActivityOptions['heartbeatTimeout'] {
  return `${seconds} seconds`;
}

const LLM_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  // Transient provider errors retry with backoff, but a turn never hangs on a dead provider for long: the
  // MODEL_GIVE_UP setting bounds the retries (runs recorded before it existed keep 5 minutes).
  scheduleToCloseTimeout: '5 minutes',
  // A cancelled turn moves on at once: a model call changes nothing, so there is no outcome to wait for.
  cancellationType: ActivityCancellationType.TRY_CANCEL,
  retry: {
    initialInterval: MODEL_RETRY.initialIntervalMs,
    backoffCoefficient: MODEL_RETRY.backoffCoefficient,
    maximumInterval: MODEL_RETRY.maximumIntervalMs,
    nonRetryableErrorTypes: [FailureTypes.LlmAuth, FailureTypes.LlmMisconfigured, FailureTypes.LlmBadRequest],
  },
};
const llm = proxyActivities<LlmActivities>(LLM_OPTIONS);

/** A model call, given up after `giveUpSeconds` of failing (MODEL_GIVE_UP); its last failure says why. The
 * summary names the task and the agent in the Temporal UI (metadata only: replays ignore it): the request's goal's,
 * or `agent` for a request that names its goal by number (PlanContextRef). */
function withGiveUp<A extends { goal?: { agentName: string } }, R>(
  task: string,
  activity: ActivityFunctionWithOptions<(arg: A) => Promise<R>>,
) {
  return (arg: A, giveUpSeconds?: number, heartbeatSeconds?: number, agent = arg.goal?.agentName): Promise<R> =>
    activity.executeWithOptions(
      {
        ...LLM_OPTIONS,
        heartbeatTimeout: heartbeat(heartbeatSeconds),
        ...(giveUpSeconds ? { scheduleToCloseTimeout: `${giveUpSeconds} seconds` } : {}),
        summary: `${task} (${agent})`,
      },
      [arg],
    );
}

export const validatePrompt = withGiveUp(ACTIVITY_STEPS.validatePrompt.label, llm.validatePrompt);
export const planTurn = withGiveUp(ACTIVITY_STEPS.planTurn.label, llm.planTurn);
export const vetAndPlan = withGiveUp(ACTIVITY_STEPS.vetAndPlan.label, llm.vetAndPlan);
export const summarizeConversation = withGiveUp(ACTIVITY_STEPS.summarizeConversation.label, llm.summarizeConversation);
export const proposeMemories = withGiveUp(ACTIVITY_STEPS.proposeMemories.label, llm.proposeMemories);

const NATIVE_TOOL_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '3 minutes',
  // The dispatcher heartbeats while a tool runs (runTool sets the timeout): a dead worker's call moves to another in
  // seconds. It runs once however often it is retried (the effect ledger), so retrying is safe.
  retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.UnknownTool] },
};

/** Indexed by tool name: `nativeTools[name](args)` schedules an activity of that type. */
const nativeTools = proxyActivities<Record<string, ToolActivity>>(NATIVE_TOOL_OPTIONS);

/**
 * A native tool of this worker (PATCHES.localNativeTools): the same activity, run by the worker inside the workflow
 * task that asked for it, its result recorded as a marker with the next model call. An attempt lost with its worker
 * is run again by the next one, after the workflow task's timeout (Temporal's 10 s unless the conversation started
 * with another) as a missed heartbeat would be: a read-only tool reads again, one that changes state finds its first
 * run in the effect ledger, so it acts once.
 */
const LOCAL_TOOL_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: NATIVE_TOOL_OPTIONS.startToCloseTimeout,
  scheduleToCloseTimeout: NATIVE_TOOL_OPTIONS.scheduleToCloseTimeout,
  retry: NATIVE_TOOL_OPTIONS.retry,
};
const localNativeTools = proxyLocalActivities<Record<string, ToolActivity>>(LOCAL_TOOL_OPTIONS);

/** MCP calls: per-call timeouts come from the endpoint (see mcpCallOptions). Connection failures retry. */
/** Options per call (runTool): a remote agent's task is as long as a delegate's. */
const a2a = proxyActivities<A2aActivities>({ startToCloseTimeout: '1 hour' });
const mcp = proxyActivities<McpActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '20 seconds', maximumAttempts: 4 },
});

export const { describeCatalog } = mcp;

/** An endpoint's resources and prompts, for clients: a server's no (unknown URI, prompt) is final, a lost session
 * is tried once more. */
export const { describeEndpointFeatures, readResource, getPrompt } = proxyActivities<McpActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 2, nonRetryableErrorTypes: [FailureTypes.UnknownEndpoint] },
});

/**
 * Made tools: the sandbox stops a call after its CPU limit (SANDBOX_TIMEOUT_MS, at most 5 s), so an attempt that
 * takes 30 s lost its worker; pure code is safe to run again elsewhere.
 */
const CODE_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.Misconfigured] },
};
const code = proxyActivities<CodeActivities>(CODE_OPTIONS);

export const { describeMadeTools, manageMadeTool } = code;

/** The activities of the builtins that run activities of their own (core/builtin-runs.ts), each with the options its
 * file gives: each run's, and each check's. */
const builtinSteps = Object.fromEntries(
  BUILTIN_RUNS.flatMap((run: BuiltinRun) => (run.check ? [run, run.check] : [run])).map((step: BuiltinStep) => {
    const proxy = step.local
      ? proxyLocalActivities<Record<string, BuiltinStepStub>>(step.options as LocalActivityOptions)
      : proxyActivities<Record<string, BuiltinStepStub>>(step.options);
    return [step.activity, proxy[step.activity]!];
  }),
);
type BuiltinStepStub = ActivityFunctionWithOptions<(input: unknown) => Promise<unknown>>;

/** A builtin's activity (its run's or its check's), its input made from the call by the builtin's file: the answer.
 * One that heartbeats gets the conversation's HEARTBEAT_TIMEOUT. */
export function runBuiltin(step: BuiltinStep, input: unknown, heartbeatSeconds?: number): Promise<unknown> {
  const stub = builtinSteps[step.activity]!;
  return step.heartbeats
    ? stub.executeWithOptions({ ...step.options, heartbeatTimeout: heartbeat(heartbeatSeconds) }, [input])
    : stub(input);
}

/** A made tool's call, named in the Temporal UI by the tool and its version. */
export function runMadeTool(
  spec: ToolSpec,
  args: Record<string, unknown>,
  { owner, goalId }: ToolCaller = {},
): Promise<HookedOutcome> {
  const version = spec.made?.version ?? 0;
  return code.runMadeTool.executeWithOptions({ ...CODE_OPTIONS, summary: `${spec.name} v${version} (made tool)` }, [
    { name: spec.name, version, args, ...(owner ? { owner } : {}), ...(goalId ? { goalId } : {}) },
  ]);
}

/**
 * A call's options (MCP and HTTP API tools): the endpoint's timeout bounds each attempt, three attempts' worth bounds
 * the whole. A tool that is not idempotent gets one attempt: once sent, a retry (after a worker crash, say) could act twice, so a lost
 * call is reported as "may have run" instead (workflows/failures.ts). Idempotent and read-only tools retry.
 * `askMs`: how long the call may wait for the user besides (an MCP server's questions, TOOL_QUESTION_TIMEOUT each,
 * for up to three); the heartbeat still notices a dead worker at once.
 */
function mcpCallOptions(ref: McpToolRef, askMs: number, heartbeatSeconds: number | undefined): ActivityOptions {
  const attemptMs = ref.timeoutMs + 5_000 + askMs;
  return {
    summary: `${ref.server}/${ref.tool}`,
    startToCloseTimeout: attemptMs,
    scheduleToCloseTimeout: 3 * attemptMs + 30_000,
    heartbeatTimeout: heartbeat(heartbeatSeconds),
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '20 seconds',
      maximumAttempts: ref.idempotent ? 4 : 1,
    },
  };
}

/** Who calls a tool (its conversation's owner and goal, which every kind's activity is told), and how long a
 * question of the tool's may wait. */
export interface ToolCallContext extends ToolCaller {
  /** TOOL_QUESTION_TIMEOUT. */
  questionSeconds?: number;
  /** The conversation's budget is used: the tool may not use our model (sampling). */
  overBudget?: string;
  /** A delegate's: the user's conversation at the top of its tree. */
  userConversation?: string;
  /** DELEGATE_TIMEOUT: how long a delegate (a remote agent's task too) may take. */
  delegateSeconds?: number;
  /** HEARTBEAT_TIMEOUT. */
  heartbeatSeconds?: number;
}

/**
 * Runs a tool: an MCP call over the worker's pool, or a native tool's activity (on its own queue when routed).
 * `waitWhenCancelled`: a cancelled call is waited for until it stops (or finishes anyway), so its outcome is known,
 * not guessed; runs from before cancelling existed keep the SDK's actual default, TRY_CANCEL (whatever its docs say).
 */
export function runTool(
  spec: ToolSpec,
  args: Record<string, unknown>,
  waitWhenCancelled: boolean,
  caller: ToolCallContext = {},
  /** Native tools of this worker run as local activities (see `runsLocally`). */
  local = false,
): Promise<HookedOutcome & { spent?: Usage }> {
  const cancellationType = waitWhenCancelled
    ? ActivityCancellationType.WAIT_CANCELLATION_COMPLETED
    : ActivityCancellationType.TRY_CANCEL;
  const { owner, goalId, overBudget, userConversation } = caller;
  const who: ToolCaller = { ...(owner ? { owner } : {}), ...(goalId ? { goalId } : {}) };
  if (spec.mcp) {
    const askMs = 3 * 1000 * (caller.questionSeconds ?? 0);
    return mcp.callMcpTool.executeWithOptions(
      { ...mcpCallOptions(spec.mcp, askMs, caller.heartbeatSeconds), cancellationType },
      [
        {
          name: spec.name,
          ref: spec.mcp,
          args,
          ...who,
          ...(overBudget ? { overBudget } : {}),
          ...(userConversation ? { userConversation } : {}),
        },
      ],
    );
  }
  if (spec.a2a)
    return a2a.askRemoteAgent.executeWithOptions(
      {
        summary: `a2a:${spec.a2a.agent}`,
        // The remote task's own limit (the registry's timeoutMs) ends it sooner; this bounds a remote agent that hangs.
        startToCloseTimeout: `${caller.delegateSeconds ?? 3_600} seconds`,
        heartbeatTimeout: heartbeat(caller.heartbeatSeconds),
        // Each attempt follows the task the first one started (its id is in the heartbeat details): retrying sends
        // nothing twice.
        retry: {
          initialInterval: '1 second',
          backoffCoefficient: 2,
          maximumInterval: '20 seconds',
          maximumAttempts: 10,
        },
        cancellationType,
      },
      [
        {
          name: spec.name,
          agent: spec.a2a.agent,
          ...(spec.a2a.contextId ? { contextId: spec.a2a.contextId } : {}),
          args,
          ...who,
          ...(userConversation ? { userConversation } : {}),
        },
      ],
    );
  if (spec.http)
    return mcp.callHttpTool.executeWithOptions(
      {
        ...mcpCallOptions(
          { ...spec.http, server: spec.http.api, tool: spec.http.operation },
          0,
          caller.heartbeatSeconds,
        ),
        cancellationType,
      },
      [{ name: spec.name, ref: spec.http, args, ...who }],
    );
  // A tool owned by another worker: same activity type, its own task queue, and a bounded wait for that worker,
  // so if nobody serves the queue the LLM hears so in 30 s, not 3 minutes.
  const routed = spec.taskQueue ? { taskQueue: spec.taskQueue, scheduleToStartTimeout: '30 seconds' as const } : {};
  if (local && runsLocally(spec))
    return localNativeTools[spec.name]!.executeWithOptions({ ...LOCAL_TOOL_OPTIONS, cancellationType }, [
      args,
      { ...who, owner: owner ?? LOCAL_OWNER },
    ]);
  return nativeTools[spec.name]!.executeWithOptions(
    { ...NATIVE_TOOL_OPTIONS, ...routed, cancellationType, heartbeatTimeout: heartbeat(caller.heartbeatSeconds) },
    [args, who],
  );
}

/** A native tool that may run as a local activity: this worker serves it (not one routed to another's queue). */
export function runsLocally(spec: ToolSpec): boolean {
  return spec.kind === 'native' && !spec.taskQueue;
}
