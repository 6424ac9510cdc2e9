// CreateTool: a new tool, a pure function the LLM drafts with examples. The worker checks the draft first (schemas,
// a free name, the size budget, every example run twice in its sandbox), so the user is only asked about drafts that
// work, and is shown how each example ran beside the code; a failing draft goes back to the LLM with the reasons.
// Once approved an activity writes the tool's next version, and this conversation can call it at once.
import { FailureTypes } from './failure-types';
import type { ActivityOptions } from '@temporalio/workflow';
import { builtinCheck, builtinRun } from './builtin-run';
import { invalid } from './check-args';
import { shortJson } from './format';
import type { ExampleRun, ToolDraftCheck } from './made-tools';
import type { ToolSpec } from './types';

/** Drafts a new tool (a pure function run in the sandbox); checked on its examples, approved, then usable at once. */
export const CREATE_TOOL = 'CreateTool';

/**
 * The check runs each example twice in the sandbox and the write checks again: both heartbeat between runs, so a
 * worker that dies there is noticed within the heartbeat timeout, and the retried write finds its own file.
 */
const options: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.Misconfigured] },
};

type Created = { spec: ToolSpec; file: string } | { problems: string[] };

export const createTool = builtinRun({
  spec: createToolSpec(),
  activity: 'createTool',
  options,
  heartbeats: true,
  label: 'write the tool',
  patch: 'create-tool',
  check: builtinCheck({
    activity: 'checkToolDraft',
    options,
    heartbeats: true,
    label: 'check the draft',
    input: (call): unknown => call.args,
    verdict: ({ problems, runs }: ToolDraftCheck) =>
      problems.length > 0 ? { problems } : { shown: runs.map(exampleLine) },
  }),
  approvalText: [
    'Save this tool to the tools folder; it is usable at once, by this agent and by agents made with it. It is ' +
      'pure: it runs in the sandbox, with no network, files, clock or randomness.',
    'Its examples, as the sandbox ran them:',
  ].join('\n'),
  // What the new tool was asked for: the user's latest words.
  input: (call, { request }): { draft: unknown; request: string; callId: string } => ({
    draft: call.args,
    request,
    callId: call.id,
  }),
  cancelled: 'Cancelled by the user; the tool may or may not have been saved (agent tools --made lists it if it was).',
  outcome: (created: Created) =>
    'problems' in created
      ? invalid(created.problems)
      : {
          status: 'ok',
          result: {
            created: created.spec.name,
            version: created.spec.made?.version,
            next: `call ${created.spec.name} now; CreateAgent can give it to agents`,
          },
        },
  took: (created, host) => {
    if ('spec' in created) host.made(created.spec);
  },
});

const short = (value: unknown) => shortJson(value, 120);

function exampleLine(run: ExampleRun, i: number): string {
  const answer = run.error ?? short(run.output);
  return `${i + 1}. ${short(run.input)} → ${answer} ${run.passed ? '✓' : '✗'} (${run.ms} ms)`;
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
