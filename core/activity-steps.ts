// Every activity the workflows schedule, by name, and what it is as a step of a run: the one table the run view reads
// (views/run-view/steps.ts) and the workflow's activity stubs label their calls from (workflows/activity-stubs.ts).
// Keyed by the activity interfaces themselves, so the compiler refuses an activity added without its entry. A native
// tool's activity is named after the tool (the catch-all `default`): not listed, a tool step by its own name.
import { LIST_AGENTS } from './builtin-specs';
import { BUILTIN_RUN_STEPS, type BuiltinRunActivities } from './builtin-runs';
import type {
  A2aActivities,
  CodeActivities,
  DeploymentActivities,
  GoalActivities,
  LlmActivities,
  McpActivities,
  MemoryActivities,
  OutcomeActivities,
} from './activity-types';

export type ActivityStep =
  /** A model call; `label` says what for (the Temporal UI's summary, the run view's step). */
  | { kind: 'model'; label: string }
  /** CreateAgent's and CreateTool's checks and writes. */
  | { kind: 'draft'; label: string }
  /** A builtin tool's own activity: the step is that tool's call. */
  | { kind: 'builtin'; tool: string }
  /** A tool call through an endpoint (MCP server, HTTP API) or the sandbox (a made tool): named by its input. */
  | { kind: 'endpoint' | 'made' }
  /** An AskAgent call to a remote A2A agent: a delegate step whose branch is the remote task. */
  | { kind: 'remote' }
  /** What a conversation (or a client, through a describe workflow) runs for itself: never a step of a turn. */
  | { kind: 'housekeeping' };

type ActivityName = keyof (GoalActivities &
  LlmActivities &
  McpActivities &
  CodeActivities &
  BuiltinRunActivities &
  A2aActivities &
  DeploymentActivities &
  OutcomeActivities &
  MemoryActivities);

export const ACTIVITY_STEPS = {
  validatePrompt: { kind: 'model', label: 'check the prompt fits' },
  planTurn: { kind: 'model', label: 'plan the next step' },
  vetAndPlan: { kind: 'model', label: 'check the prompt fits and plan the next step' },
  summarizeConversation: { kind: 'model', label: 'summarise for continue-as-new' },
  proposeMemories: { kind: 'model', label: 'propose memories from the conversation' },
  listAgents: { kind: 'builtin', tool: LIST_AGENTS },
  ...BUILTIN_RUN_STEPS,
  callMcpTool: { kind: 'endpoint' },
  callHttpTool: { kind: 'endpoint' },
  runMadeTool: { kind: 'made' },
  askRemoteAgent: { kind: 'remote' },
  loadSettings: { kind: 'housekeeping' },
  resolveGoal: { kind: 'housekeeping' },
  describeCatalog: { kind: 'housekeeping' },
  describeAgents: { kind: 'housekeeping' },
  describeGoalFiles: { kind: 'housekeeping' },
  manageGoal: { kind: 'housekeeping' },
  describeMadeTools: { kind: 'housekeeping' },
  manageMadeTool: { kind: 'housekeeping' },
  describeEndpointFeatures: { kind: 'housekeeping' },
  readResource: { kind: 'housekeeping' },
  getPrompt: { kind: 'housekeeping' },
  newerBuildRouted: { kind: 'housekeeping' },
  deliverOutcome: { kind: 'housekeeping' },
  manageMemory: { kind: 'housekeeping' },
} as const satisfies Record<ActivityName, ActivityStep>;

/** What an activity of this type is as a step; undefined for a native tool's (named after the tool). */
export function activityStepOf(type: string | null | undefined): ActivityStep | undefined {
  return type && Object.hasOwn(ACTIVITY_STEPS, type) ? ACTIVITY_STEPS[type as ActivityName] : undefined;
}
