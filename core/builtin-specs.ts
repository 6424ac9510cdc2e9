// The builtin tools' names and specs, as the LLM reads them: tools the workflow decides itself
// (workflows/decider/builtins/). Most change only the conversation; AskAgent starts delegates. The builtins that run
// activities of their own (CreateAgent and CreateTool among them) are each described whole in a file of their own,
// listed in core/builtin-runs.ts.
import { BUILTIN_RUN_SPECS } from './builtin-runs';
import type { AgentSummary, ToolSpec } from './types';

export const LIST_AGENTS = 'ListAgents';
export const CHANGE_GOAL = 'ChangeGoal';
export const COMPLETE_GOAL = 'CompleteGoal';
/** Hands a task to another agent, run as a child conversation; offered to goals that list `delegates`. */
export const ASK_AGENT = 'AskAgent';
/** A delegate's question for the user, asked through its parent; offered to delegates only. */
export const ASK_USER = 'AskUser';
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
  [ASK_AGENT]: askAgentSpec([]),
  ...BUILTIN_RUN_SPECS,
  [ASK_USER]: {
    name: ASK_USER,
    description:
      'Ask the user a question you cannot do without (a missing detail, a choice). The question reaches the user ' +
      "through the agent that gave you this task, and the answer comes back as this tool's result.",
    category: 'agents',
    inputSchema: {
      type: 'object',
      properties: { question: { type: 'string', description: 'The question, in plain words' } },
      required: ['question'],
      additionalProperties: false,
    },
    approval: 'never',
    kind: 'builtin',
  },
};

/** AskAgent with the agents this goal may delegate to: their ids in the schema, what each does in the description. */
export function askAgentSpec(delegates: AgentSummary[]): ToolSpec {
  return {
    name: ASK_AGENT,
    description:
      'Hand a task to another agent and get its result. It works on its own (it may ask the user or wait for ' +
      'approvals) and answers with {status, summary, data?}. Several AskAgent calls in one step run in parallel: ' +
      'use that for independent sub-tasks. Agents: ' +
      (delegates.length ? delegates.map((a) => `${a.goalId} (${a.agentName}: ${a.description})`).join('; ') : 'none') +
      '.',
    category: 'agents',
    inputSchema: {
      type: 'object',
      properties: {
        goalId: {
          type: 'string',
          enum: delegates.map((a) => a.goalId),
          description: 'The goal id of the agent to ask',
        },
        task: { type: 'string', minLength: 1, description: 'What the agent should do, with every detail it needs' },
      },
      required: ['goalId', 'task'],
      additionalProperties: false,
    },
    approval: 'never',
    kind: 'builtin',
  };
}

/** The goal id an AskAgent call asks. Its argument was first named `agentId`: a conversation that began then offers
 * that name (its AskAgent spec is recorded with its goal) and its calls use it; they mean the same. */
export function askedGoalId(args: Record<string, unknown>): string {
  return String(args.goalId ?? args.agentId);
}

/** The goal id a remote A2A agent answers to in AskAgent (`a2a:<registry name>`): never a goal's (no `:` in those). */
export const REMOTE_AGENT_PREFIX = 'a2a:';

/** The registry name of the remote agent an AskAgent call asks, or undefined when it asks one of our goals. */
export function remoteAgentOf(goalId: string): string | undefined {
  return goalId.startsWith(REMOTE_AGENT_PREFIX) ? goalId.slice(REMOTE_AGENT_PREFIX.length) : undefined;
}

export function isBuiltinTool(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(BUILTIN_TOOLS, name);
}
