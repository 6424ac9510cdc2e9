// The builtin tools' names and specs, as the LLM reads them: tools the workflow decides itself
// (workflows/decider/builtins/). Most change only the conversation; AskAgent starts delegates, CreateAgent writes a
// goal file and CreateTool a tool file after the user approves them. The builtins that only run an activity of their
// own are each described whole in a file of their own, listed in core/builtin-runs.ts.
import { BUILTIN_RUN_SPECS } from './builtin-runs';
import type { AgentSummary, ToolSpec } from './types';

export const LIST_AGENTS = 'ListAgents';
export const CHANGE_GOAL = 'ChangeGoal';
export const COMPLETE_GOAL = 'CompleteGoal';
/** Hands a task to another agent, run as a child conversation; offered to goals that list `delegates`. */
export const ASK_AGENT = 'AskAgent';
/** A delegate's question for the user, asked through its parent; offered to delegates only. */
export const ASK_USER = 'AskUser';
/** Drafts a new agent (a goal) from the live catalog; the user approves the full definition before it is written. */
export const CREATE_AGENT = 'CreateAgent';
/** Drafts a new tool (a pure function run in the sandbox); checked on its examples, approved, then usable at once. */
export const CREATE_TOOL = 'CreateTool';
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
  [CREATE_AGENT]: createAgentSpec(''),
  [CREATE_TOOL]: createToolSpec(),
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

/**
 * CreateAgent with what a new agent can be made of, as the worker sees it now (native tools, MCP servers, agents);
 * it always waits for the user, who sees the whole definition and may edit it.
 */
export function createAgentSpec(catalog: string): ToolSpec {
  return {
    name: CREATE_AGENT,
    description:
      'Create a new agent (a goal) from what already exists, when the user asks for a capability no agent has. ' +
      'The user reviews the whole definition before it is saved; it is then usable at once (ChangeGoal to it, or ' +
      'AskAgent from agents that delegate to its category). Choose tools, MCP servers or categories, and delegates, ' +
      `only from this catalog:\n${catalog}`,
    category: 'agents',
    inputSchema: {
      type: 'object',
      properties: {
        goal: {
          type: 'object',
          description: 'The new goal',
          properties: {
            id: { type: 'string', description: 'goal_<words>: lowercase letters, digits and _' },
            category: { type: 'string' },
            agentName: { type: 'string' },
            agentFriendlyDescription: { type: 'string', description: 'One sentence for users picking an agent' },
            description: { type: 'string', description: 'For the agent: what it must achieve and how, with its tools' },
            starterPrompt: {
              type: 'string',
              description: 'How it opens a conversation, e.g. "Greet the user and ask …"',
            },
            tools: { type: 'array', items: { type: 'string' }, description: 'Native tool names' },
            mcp: {
              type: 'object',
              description: '{servers?: [...], categories?: [...], tools?: ["server/tool" globs]}',
            },
            delegates: {
              type: 'array',
              items: { type: 'string' },
              description: 'Agents it may hand tasks to: goal ids, globs or categories',
            },
          },
          required: ['id', 'category', 'agentName', 'agentFriendlyDescription', 'description', 'starterPrompt'],
        },
      },
      required: ['goal'],
      additionalProperties: false,
    },
    approval: 'always',
    kind: 'builtin',
  };
}

/** CreateTool: what a made tool is and what the draft needs; it always waits for the user. */
export function createToolSpec(): ToolSpec {
  const schema = { type: 'object', description: 'A JSON Schema' };
  return {
    name: CREATE_TOOL,
    description:
      'Create a new tool when no tool can compute what the user needs (extract URLs, convert units, score with a ' +
      'given formula): a pure JavaScript function body of `input` (an object matching inputSchema) that returns a ' +
      'JSON value. It runs in a sandbox: no network, files, clock (Date), randomness, modules or other tools; ' +
      'built-ins are frozen; 1 s of CPU. Give at least 3 examples with the exact output expected: the worker runs ' +
      'each (twice) before the user sees the draft, and tells you what failed. Once the user approves, the tool is ' +
      'yours to call at once, and CreateAgent can give it to new agents.',
    category: 'agents',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'snake_case or PascalCase, 3-64 letters, digits and _, unused' },
        description: { type: 'string', description: 'What it does, for the agents that will call it' },
        inputSchema: { ...schema, description: 'JSON Schema of its input: type "object" with properties' },
        outputSchema: { ...schema, description: 'JSON Schema of its answer (optional)' },
        code: { type: 'string', description: 'The body of function (input) { … }: end with return' },
        examples: {
          type: 'array',
          minItems: 3,
          items: {
            type: 'object',
            properties: { input: { type: 'object' }, output: { description: 'The exact answer expected' } },
            required: ['input', 'output'],
          },
        },
        update: { type: 'boolean', description: 'true to make the next version of a made tool of this name' },
      },
      required: ['name', 'description', 'inputSchema', 'code', 'examples'],
      additionalProperties: false,
    },
    approval: 'always',
    kind: 'builtin',
  };
}

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

export function isBuiltinTool(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(BUILTIN_TOOLS, name);
}
