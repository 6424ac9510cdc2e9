// CreateAgent: a new agent (a goal) drafted by the LLM from the live catalog. It changes the world (a goal file), so
// it goes through argument checks and approval like any such tool; the draft is checked first, so the user is only
// shown drafts that can be goals; once approved, an activity writes it and it is usable at once.
import { FailureTypes } from './failure-types';
import type { ActivityOptions } from '@temporalio/workflow';
import { builtinCheck, builtinRun } from './builtin-run';
import { invalid } from './check-args';
import type { AgentDraftResult, ToolSpec } from './types';

/** Drafts a new agent (a goal) from the live catalog; the user approves the full definition before it is written. */
export const CREATE_AGENT = 'CreateAgent';

// The goals folder is a local folder: quick, and safe to write again (the write finds its own file).
const options: ActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.UnknownGoal, FailureTypes.Misconfigured] },
};

export const createAgent = builtinRun({
  spec: createAgentSpec(''),
  activity: 'createGoal',
  options,
  label: 'write the agent',
  patch: 'create-agent',
  check: builtinCheck({
    activity: 'checkGoalDraft',
    options,
    label: 'check the draft',
    input: (call): unknown => call.args.goal,
    verdict: ({ problems }: { problems: string[] }) => (problems.length > 0 ? { problems } : { shown: [] }),
  }),
  approvalText: 'Save this new agent to the goals folder; it is usable at once.',
  // What the new agent was asked for: the user's latest words.
  input: (call, { request }): { draft: unknown; request: string; callId: string } => ({
    draft: call.args.goal,
    request,
    callId: call.id,
  }),
  cancelled: 'Cancelled by the user; the agent may or may not have been saved (agent goals lists it if it was).',
  outcome: (created: AgentDraftResult) =>
    'problems' in created
      ? invalid(created.problems)
      : { status: 'ok', result: { created: created.goalId, next: `ChangeGoal to ${created.goalId} to use it now` } },
  took: (_created, host) => host.agentMade(),
});

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
