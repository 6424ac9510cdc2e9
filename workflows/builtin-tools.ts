// Tools the workflow handles itself: they change the conversation, not the world.
import type { ToolSpec } from './types';

export const LIST_AGENTS = 'ListAgents';
export const CHANGE_GOAL = 'ChangeGoal';
export const COMPLETE_GOAL = 'CompleteGoal';

export const BUILTIN_TOOLS: Record<string, ToolSpec> = {
  [LIST_AGENTS]: {
    name: LIST_AGENTS,
    description: 'List the agents (goals) the user can switch to, with what each one does.',
    category: 'agents',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    approval: 'never',
    kind: 'builtin',
  },
  [CHANGE_GOAL]: {
    name: CHANGE_GOAL,
    description: 'Switch this conversation to another agent. Use a goalId returned by ListAgents.',
    category: 'agents',
    inputSchema: {
      type: 'object',
      properties: { goalId: { type: 'string', description: 'The goalId of the agent to switch to' } },
      required: ['goalId'],
      additionalProperties: false,
    },
    approval: 'never',
    kind: 'builtin',
  },
  [COMPLETE_GOAL]: {
    name: COMPLETE_GOAL,
    description: "Call when the user's goal is fully achieved, or the user wants to stop, to close this agent's work.",
    category: 'agents',
    inputSchema: {
      type: 'object',
      properties: { summary: { type: 'string', description: 'One sentence on what was achieved' } },
      additionalProperties: false,
    },
    approval: 'never',
    kind: 'builtin',
  },
};

export function isBuiltinTool(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(BUILTIN_TOOLS, name);
}
