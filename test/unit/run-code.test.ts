// RunCode in the decider (a run_tool effect, like any tool's, for a well-formed call, the LLM told why otherwise) and as an activity
// (the sandbox's answer, or the code's error with its line, as the call's outcome).
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import { RUN_CODE } from '../../core/run-code';
import { createCodeActivities } from '../../activities/sandbox/code-activities';
import { Conversation } from '../../workflows/decider/conversation';
import { calls, goal, next, settings, text } from '../helpers/conversation-unit';

function withRunCode(): Conversation {
  const convo = new Conversation();
  convo.begin(settings, { goal: { ...goal, tools: [RUN_CODE] }, tools: [BUILTIN_TOOLS[RUN_CODE]!] });
  convo.apply(next(convo, 'plan'), text('hello'));
  convo.enqueuePrompt('add these up');
  return convo;
}

describe('RunCode in the decider', () => {
  it('runs a call with code in the sandbox, without asking, and plans on with its result', () => {
    const convo = withRunCode();
    convo.apply(
      next(convo, 'plan'),
      calls([RUN_CODE, { code: 'return input.reduce((a, b) => a + b, 0);', input: [1, 2] }]),
    );
    const effect = next(convo, 'run_tool');
    expect(effect.spec.name).toBe(RUN_CODE);
    expect(effect.call.args).toEqual({ code: 'return input.reduce((a, b) => a + b, 0);', input: [1, 2] });
    convo.apply(effect, { status: 'ok', result: { output: 3, ms: 1 } });
    expect(convo.messages.at(-1)).toMatchObject({ kind: 'tool', outcome: { status: 'ok', result: { output: 3 } } });
    next(convo, 'plan');
  });

  it('tells the LLM what is wrong with a call without code, and runs nothing', () => {
    const convo = withRunCode();
    convo.apply(next(convo, 'plan'), calls([RUN_CODE, { input: [1, 2] }]));
    next(convo, 'plan');
    expect(convo.messages.at(-1)).toMatchObject({
      kind: 'tool',
      outcome: { status: 'invalid_input', missing: ['code'] },
    });
  });
});

describe('the runCode activity', () => {
  const { runCode } = createCodeActivities();

  it("answers with the code's JSON value", async () => {
    expect(await runCode({ code: 'return { hours: input.minutes / 60 };', input: { minutes: 90 } })).toMatchObject({
      status: 'ok',
      result: { output: { hours: 1.5 } },
    });
  });

  it("answers with the code's error and line as a tool error the LLM can read", async () => {
    expect(await runCode({ code: 'const x = 1;\nreturn x.y.z;' })).toEqual({
      status: 'tool_error',
      error: expect.stringMatching(/^TypeError: .*\(line 2\)$/),
    });
  });
});
