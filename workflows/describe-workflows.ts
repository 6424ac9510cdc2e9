// One long-lived workflow per task queue through which clients ask the worker what it sees (`agent agents`,
// `agent endpoints`, `agent tools`, its goal files and made tools, the goal check of `npm start`): the answer is the
// worker's view (its goals and tools folders, GOAL_CATEGORIES, secrets, network and last discovery), not the
// client's. Clients reach it with update-with-start, so it is started on first use and every later question reuses
// it: asking leaves no row behind in the workflow list, where a workflow per question would leave one each.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineUpdate,
  setHandler,
  setWorkflowOptions,
  workflowInfo,
} from '@temporalio/workflow';
import type { AgentsDescription, GoalFileSummary } from '../core/activity-types';
import type { MadeToolSummary } from '../core/made-tools';
import type { MemoryAnswer, MemoryRequest } from '../core/memory';
import {
  describeAgents,
  describeCatalog,
  describeGoalFiles,
  describeMadeTools,
  describeEndpointFeatures,
  getPrompt,
  manageGoal,
  manageMadeTool,
  manageMemory,
  readResource,
  resolveGoal,
} from './activity-stubs';
import type { EndpointFeatures, PromptOpening, PromptRef, ResourceRead, ResourceRef } from '../core/mcp-features';
import type { CatalogSummary, ToolSpec } from '../core/types';

export interface CatalogDescription {
  catalog: CatalogSummary;
  tools: ToolSpec[];
}

export const describeAgentsUpdate = defineUpdate<AgentsDescription>('describeAgents');
/** The MCP catalog, and the tools of `goalId` (its native tools and builtins beside its MCP tools) or all MCP tools. */
export const describeCatalogUpdate = defineUpdate<CatalogDescription, [{ goalId?: string }]>('describeCatalog');

/** The goals folder's files, with provenance (`agent goals`). */
export const describeGoalFilesUpdate = defineUpdate<GoalFileSummary[]>('describeGoalFiles');
/** Disables, enables or removes a goal file (`agent goals disable|enable|remove <id>`). */
export const manageGoalUpdate = defineUpdate<
  GoalFileSummary,
  [{ action: 'disable' | 'enable' | 'remove'; goalId: string }]
>('manageGoal');

/** The tools folder's made tools, every version, disabled and broken ones too (`agent tools`). */
export const describeMadeToolsUpdate = defineUpdate<MadeToolSummary[], []>('describeMadeTools');
/** Disables, enables or removes every version of a made tool (`agent tools disable|enable|remove <name>`): the
 * versions left come back (none after remove). */
export const manageMadeToolUpdate = defineUpdate<
  MadeToolSummary[],
  [{ action: 'disable' | 'enable' | 'remove'; name: string }]
>('manageMadeTool');

/** An MCP endpoint's resources, resource templates and prompts (`agent endpoints <name>`, the API). */
export const describeEndpointFeaturesUpdate = defineUpdate<EndpointFeatures, [{ endpoint: string; owner?: string }]>(
  'describeEndpointFeatures',
);
/** Reads a resource in the worker, for a client to attach to a message (`agent say --resource`). */
export const readResourceUpdate = defineUpdate<ResourceRead, [ResourceRef]>('readResource');
/** A server prompt's messages, for a client to open a conversation with (`agent start --prompt`). */
export const getPromptUpdate = defineUpdate<PromptOpening, [PromptRef]>('getPrompt');
/** People's requests of their memories (`agent memory`, the API's /api/memories): the worker keeps the store. */
export const manageMemoryUpdate = defineUpdate<MemoryAnswer, [MemoryRequest]>('manageMemory');

/** The describe workflow of a task queue: one id per queue, so update-with-start finds the running one. */
export function describeWorkflowId(taskQueue: string): string {
  return `describe-${taskQueue}`;
}

/**
 * Questions answered per run before it continues as new: well under the server's 2,000 updates per execution, and
 * a history of a few thousand events at most. Each new run leaves its predecessor listed as continued-as-new.
 */
export const QUESTIONS_PER_RUN = 500;

export async function DescribeWorkflow(): Promise<never> {
  let asked = 0;
  setHandler(describeAgentsUpdate, async () => {
    asked++;
    return describeAgents();
  });
  setHandler(describeCatalogUpdate, async ({ goalId }) => {
    asked++;
    const described = await describeCatalog();
    if (!goalId) return described;
    const resolved = await resolveGoal(goalId);
    return { catalog: described.catalog, tools: resolved.tools };
  });
  setHandler(describeGoalFilesUpdate, async () => {
    asked++;
    return describeGoalFiles();
  });
  setHandler(manageGoalUpdate, async (input) => {
    asked++;
    return manageGoal(input);
  });
  setHandler(describeMadeToolsUpdate, async () => {
    asked++;
    return describeMadeTools();
  });
  setHandler(manageMadeToolUpdate, async (input) => {
    asked++;
    return manageMadeTool(input);
  });
  setHandler(describeEndpointFeaturesUpdate, async (input) => {
    asked++;
    return describeEndpointFeatures(input);
  });
  setHandler(readResourceUpdate, async (input) => {
    asked++;
    return readResource(input);
  });
  setHandler(getPromptUpdate, async (input) => {
    asked++;
    return getPrompt(input);
  });
  setHandler(manageMemoryUpdate, async (input) => {
    asked++;
    return manageMemory(input);
  });
  // Nothing to do between questions: the run waits (no timer, no history) until its history should be renewed.
  await condition(() => asked >= QUESTIONS_PER_RUN || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  return continueAsNew<typeof DescribeWorkflow>();
}

// The worker's desk answers from whichever build is current: it holds nothing a newer build could not replay (each
// question is an update that runs one activity), and pinned it would keep an old build's workers needed. Named only
// on a versioned worker: an unversioned one may not name a versioning behaviour. (Its client also starts it with an
// AUTO_UPGRADE override, client/worker-desk.ts; that one is not carried across continue-as-new.)
setWorkflowOptions(
  () => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: 'AUTO_UPGRADE' } : {}),
  DescribeWorkflow,
);
