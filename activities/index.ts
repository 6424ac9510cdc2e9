// The activities factory: dependencies are injected, so tests swap the model or the data at the outermost edge.
import type { ToolContext } from '../tools/define-tool';
import { createGoalActivities, type GoalDeps } from './goal-activities';
import type { Limits } from './limits';
import { createLlmActivities, type LlmDeps } from './llm/llm-activities';
import { createMcpActivities, type McpDeps } from './mcp-activities';
import { createCodeActivities, type CodeDeps } from './sandbox/code-activities';
import { createToolDispatcher } from './tool-activities';
import { createFileActivities, type FileDeps } from './file-activities';
import type { HookRunner } from './hooks/hook-runner';
import { toolPipeline } from './tool-pipeline';
import type { Client } from '@temporalio/client';
import { createDeploymentActivities } from './deployment-activities';
import { createA2aActivities, type A2aDeps } from './a2a-activities';
import { createOutcomeActivities } from './outcome-activities';
import { createMemoryActivities } from './memory-activities';
import type { LazyMemoryStore } from '../memory/open-store';

export interface ActivityDeps extends GoalDeps {
  llm: LlmDeps;
  toolContext: ToolContext;
  mcp: McpDeps;
  limits?: Limits;
  code?: CodeDeps;
  /** The blob store: results too big for history are kept whole there, and ReadFile reads them and attachments. */
  files?: FileDeps & { thresholdChars: number };
  /** The hooks (HOOKS): around model calls, tool calls and the user's messages. */
  hooks?: HookRunner;
  /** Remote A2A agents (the registry's `a2aAgents`), asked through AskAgent. */
  a2a?: A2aDeps;
  /** Owners' memories (MEMORY on): Remember, Forget, and the recall before planning (llm.memory). */
  memory?: LazyMemoryStore;
  /** The worker's Temporal client: a versioned conversation asks it where its deployment routes (worker versioning). */
  temporal?: Client;
}

export function createActivities(deps: ActivityDeps) {
  // Every kind of tool call, one way: hooks, claim check, telemetry (tool-pipeline.ts).
  const callTool = toolPipeline({ hooks: deps.hooks, check: deps.files, limits: deps.limits });
  return {
    ...createGoalActivities(deps),
    ...createLlmActivities({ ...deps.llm, maxReplyChars: deps.limits?.maxReplyChars, hooks: deps.hooks }),
    ...createMcpActivities(deps.mcp, callTool, deps.limits),
    ...createCodeActivities({ made: deps.made, ...deps.code }, callTool),
    ...(deps.files ? createFileActivities(deps.files) : {}),
    ...(deps.temporal ? createDeploymentActivities(deps.temporal) : {}),
    ...(deps.a2a ? createA2aActivities(deps.a2a, callTool) : {}),
    ...createOutcomeActivities(),
    ...(deps.memory ? createMemoryActivities(deps.memory) : {}),
    // The catch-all: any activity type not named above is a native tool.
    default: createToolDispatcher(deps.tools, deps.toolContext, callTool),
  };
}
