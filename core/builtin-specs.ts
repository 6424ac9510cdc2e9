// The builtin tools' names and specs, as the LLM reads them: tools the workflow handles itself, without a tool
// activity (workflows/decider/builtins/ decides each). Most change only the conversation; AskAgent starts delegates,
// CreateAgent writes a goal file and CreateTool a tool file after the user approves them.
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
/** Finds tools by what they do, when a goal has more than TOOL_SEARCH_THRESHOLD: the LLM then sees only some. */
export const SEARCH_TOOLS = 'SearchTools';
/** Runs a short pure script in the sandbox for a one-off computation; offered to goals that list it. */
export const RUN_CODE = 'RunCode';
/** Reads a window of a file the conversation holds (an attachment, a result too big for history); offered while it
 * holds any. */
export const READ_FILE = 'ReadFile';

/** ReadFile's spec: a window by characters, pages, rows (of a sheet), or a query (JSONPath, a column filter). */
export const READ_FILE_SPEC: ToolSpec = {
  name: READ_FILE,
  description:
    'Read part of a file of this conversation (one the user attached, or a tool result too big to show whole): by ' +
    'pages (PDF), rows (CSV, spreadsheets; filter rows with `where`), characters (text, JSON), or a JSONPath into ' +
    'JSON. Each answer says whether there is more and the window to ask for next.',
  category: 'files',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The file id (64 hex characters), as given with the file' },
      pages: {
        type: 'object',
        properties: { from: { type: 'integer', minimum: 1 }, to: { type: 'integer', minimum: 1 } },
        required: ['from'],
        additionalProperties: false,
        description: 'PDF pages, 1-based, inclusive',
      },
      rows: {
        type: 'object',
        properties: { from: { type: 'integer', minimum: 0 }, count: { type: 'integer', minimum: 1, maximum: 500 } },
        required: ['from', 'count'],
        additionalProperties: false,
        description: 'Table rows, 0-based, after the header (after the filter, with `where`)',
      },
      sheet: { type: 'string', description: 'A spreadsheet sheet by name (default: the first)' },
      where: {
        type: 'object',
        properties: {
          column: { type: 'string' },
          op: { type: 'string', enum: ['=', '!=', '<', '<=', '>', '>=', 'contains'] },
          value: { type: ['string', 'number'] },
        },
        required: ['column', 'op', 'value'],
        additionalProperties: false,
        description: 'Only the rows whose column compares so (numbers as numbers)',
      },
      jsonPath: { type: 'string', description: 'A JSONPath into JSON, e.g. $.items[0:10].name' },
      offset: { type: 'integer', minimum: 0, description: 'Text: the first character to read' },
      length: { type: 'integer', minimum: 1, maximum: 20000, description: 'Text: how many characters' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  approval: 'never',
  readOnly: true,
  kind: 'builtin',
};

/** SearchTools' spec: the arguments and the one-line promise the LLM reads. */
export const SEARCH_TOOLS_SPEC: ToolSpec = {
  name: SEARCH_TOOLS,
  description:
    'Find tools by what they should do (e.g. "create a calendar event", "refund an invoice"). Returns the best ' +
    'matches with their arguments; you can call them right away, for the rest of this request.',
  category: 'agents',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, description: 'What the tool should do, in a few words' },
      limit: { type: 'integer', minimum: 1, maximum: 10, description: 'How many matches (default 5)' },
    },
    required: ['query'],
    additionalProperties: false,
  },
  approval: 'never',
  readOnly: true,
  kind: 'builtin',
};

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
  [SEARCH_TOOLS]: SEARCH_TOOLS_SPEC,
  [CREATE_AGENT]: createAgentSpec(''),
  [CREATE_TOOL]: createToolSpec(),
  [RUN_CODE]: {
    name: RUN_CODE,
    description:
      'Compute something exactly with a short JavaScript function body (sums, date arithmetic without Date, parsing ' +
      'a pasted table, counting): `input` holds the data you pass; `return` a JSON value. It runs in a sandbox with ' +
      'no network, files, clock, randomness or tools, and stops after 1 s of CPU. The user sees the code and the result.',
    category: 'agents',
    inputSchema: {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 1, description: 'The body of function (input) { … }: end with return' },
        input: { description: 'The data the code works on (any JSON value)' },
      },
      required: ['code'],
      additionalProperties: false,
    },
    approval: 'never',
    readOnly: true,
    kind: 'builtin',
  },
  [READ_FILE]: READ_FILE_SPEC,
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
