// SearchTools: past TOOL_SEARCH_THRESHOLD the model sees only some tools (workflows/decider/tool-offer.ts) and finds
// the rest by what they do; what it finds is offered for the rest of the turn. The ranking runs as a local activity
// over the tools the conversation offers (builtins left out): in-process, its answer recorded, never recomputed.
import { FailureTypes } from './failure-types';
import type { ToolMatch, ToolSpec } from './types';
import { builtinRun } from './builtin-run';

/** Finds tools by what they do, when a goal has more than TOOL_SEARCH_THRESHOLD: the LLM then sees only some. */
export const SEARCH_TOOLS = 'SearchTools';

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

export const searchTools = builtinRun({
  spec: SEARCH_TOOLS_SPEC,
  activity: 'searchTools',
  local: true,
  options: {
    startToCloseTimeout: '30 seconds',
    retry: { maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.UnknownGoal, FailureTypes.Misconfigured] },
  },
  patch: 'search-tools',
  input: (call, { tools }): { tools: ToolSpec[]; query: string; limit?: number } => ({
    tools,
    query: String(call.args.query),
    limit: typeof call.args.limit === 'number' ? call.args.limit : undefined,
  }),
  outcome: (matches: ToolMatch[], call) => ({ status: 'ok', result: { query: String(call.args.query), matches } }),
  took: (matches, host) => host.found(matches.map((m) => m.name)),
});
