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
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createGoalActivities(deps),
    ...createLlmActivities({ ...deps.llm, maxReplyChars: deps.limits?.maxReplyChars, hooks: deps.hooks }),
    ...createMcpActivities({ ...deps.mcp, hooks: deps.hooks }, deps.limits, deps.files),
    ...createCodeActivities({ made: deps.made, ...deps.code, hooks: deps.hooks }),
    ...(deps.files ? createFileActivities(deps.files) : {}),
    // The catch-all: any activity type not named above is a native tool.
    default: createToolDispatcher(deps.tools, deps.toolContext, deps.limits, deps.files, deps.hooks),
  };
}
