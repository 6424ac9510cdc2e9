// CreateTool: a new tool, a pure function the LLM drafts with examples. The worker checks the draft first (schemas,
// a free name, the size budget, every example run twice in its sandbox), so the user is only asked about drafts that
// work, and is shown how each example ran beside the code; a failing draft goes back to the LLM with the reasons.
// Once approved an activity writes the tool's next version, and this conversation can call it at once.
import { shortJson } from '../../../core/format';
import type { ExampleRun } from '../../../core/made-tools';
import type { ToolCall } from '../../../core/types';
import { invalid, type BuiltinContext, type BuiltinWith } from './builtin';

export function createTool(convo: BuiltinContext): BuiltinWith<'check_tool_draft' | 'create_tool'> {
  /** Calls whose draft passed the check, with its examples' runs: the user is shown them for approval. */
  const checked = new Map<string, ExampleRun[]>();
  return {
    approvalText: (call: ToolCall) =>
      [
        'Save this tool to the tools folder; it is usable at once, by this agent and by agents made with it. It is ' +
          'pure: it runs in the sandbox, with no network, files, clock or randomness.',
        'Its examples, as the sandbox ran them:',
        ...(checked.get(call.id) ?? []).map(exampleLine),
      ].join('\n'),
    beforeApproval: (call: ToolCall) => (checked.has(call.id) ? undefined : { kind: 'check_tool_draft', call }),
    // What the new tool was asked for: the user's latest words.
    run: (call: ToolCall) => ({ kind: 'create_tool', call, request: convo.log.lastUserText() }),
    cancelled: (effect) =>
      effect.kind === 'create_tool'
        ? {
            status: 'tool_error',
            error:
              'Cancelled by the user; the tool may or may not have been saved (agent tools --made lists it if it was).',
          }
        : undefined,
    appliers: {
      check_tool_draft: ({ call }, check) => {
        if ('failed' in check) convo.record(call, { status: 'tool_error', error: check.failed });
        else if (check.problems.length > 0) convo.record(call, invalid(check.problems));
        else checked.set(call.id, check.runs);
      },
      create_tool: ({ call }, created) => {
        if ('failed' in created) return convo.record(call, { status: 'tool_error', error: created.failed });
        if ('problems' in created) return convo.record(call, invalid(created.problems));
        const { name, made } = created.spec;
        convo.offer.extend(created.spec, convo.taskMode.adapt);
        convo.record(call, {
          status: 'ok',
          result: {
            created: name,
            version: made?.version,
            next: `call ${name} now; CreateAgent can give it to agents`,
          },
        });
      },
    },
  };
}

const short = (value: unknown) => shortJson(value, 120);

function exampleLine(run: ExampleRun, i: number): string {
  const answer = run.error ?? short(run.output);
  return `${i + 1}. ${short(run.input)} → ${answer} ${run.passed ? '✓' : '✗'} (${run.ms} ms)`;
}
