// CreateAgent and CreateTool as the decider runs them, from their lines in core/builtin-runs.ts: a run_tool effect
// that checks the call first, the user asked with what the check showed, then a run_tool effect that writes; what the
// write changes (the tool offered, the picker's list renewed) and what a cancel records. No Temporal: the outcomes
// are handed in as workflows/tool-kinds.ts hands them back.
import { Conversation } from '../../workflows/decider/conversation';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import { CREATE_AGENT, createAgent } from '../../core/create-agent';
import { CREATE_TOOL, createTool } from '../../core/create-tool';
import type { ToolSpec } from '../../core/types';
import { calls, goal, next, offeredBy, planThen, settings, text } from '../helpers/conversation-unit';

const draftTool = {
  name: 'word_count',
  description: 'Counts words',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  code: 'return input.text.split(/\\s+/).length;',
  examples: [1, 2, 3].map((n) => ({ input: { text: 'a '.repeat(n).trim() }, output: n })),
};
const draftGoal = {
  id: 'goal_words',
  category: 'c',
  agentName: 'Words',
  agentFriendlyDescription: 'Counts words',
  description: 'Count words',
  starterPrompt: 'Greet',
};
const made: ToolSpec = { ...BUILTIN_TOOLS.CompleteGoal!, name: 'word_count', kind: 'made', approval: 'never' };

function started(overrides = {}): Conversation {
  const convo = new Conversation();
  const tools = [BUILTIN_TOOLS[CREATE_AGENT]!, BUILTIN_TOOLS[CREATE_TOOL]!, BUILTIN_TOOLS.CompleteGoal!];
  convo.begin({ ...settings, ...overrides }, { goal: { ...goal, tools: [] }, tools });
  // Multi-goal runs list the agents first.
  if (convo.settings.multiGoal) convo.apply(next(convo, 'list_agents'), []);
  convo.apply(next(convo, 'plan'), text('hello'));
  convo.enqueuePrompt('make me a tool that counts words');
  return convo;
}

describe('Conversation: builtins checked, approved, then run (CreateTool, CreateAgent)', () => {
  it('CreateTool: checked, the user shown how its examples ran, approved, written, then offered', () => {
    const convo = started();
    const check = planThen(convo, calls([CREATE_TOOL, draftTool]));
    expect(check).toMatchObject({ kind: 'run_tool', check: true, call: { tool: CREATE_TOOL } });
    const runs = [1, 2, 3].map((n) => ({ input: { text: 'a' }, expected: n, output: n, ms: 1, passed: true }));
    const shown = createTool.check!.verdict({ problems: [], runs });
    expect(shown).toEqual({
      shown: [expect.stringMatching(/^1\. \{"text":"a"\} → 1 ✓ \(1 ms\)$/), expect.any(String), expect.any(String)],
    });
    convo.apply(check!, { status: 'ok', result: shown });
    // Asked, with the approval text and the examples' runs; nothing recorded for the call yet.
    expect(convo.nextEffect()).toBeNull();
    expect(convo.status()).toBe('awaiting_approval');
    const asked = convo.pendingApproval()!.description.split('\n');
    expect(asked.slice(0, 2)).toEqual(createTool.approvalText!.split('\n'));
    expect(asked.slice(2)).toEqual((shown as { shown: string[] }).shown);
    expect(convo.messages.filter((m) => m.kind === 'tool')).toEqual([]);

    convo.confirm({ approve: true });
    const write = next(convo, 'run_tool');
    expect(write.check).toBeUndefined();
    expect(
      createTool.input(write.call, {
        files: { get: () => undefined, list: () => [] },
        tools: [],
        request: 'r',
        owner: 'local',
        goalId: 'g',
      }),
    ).toEqual({ draft: draftTool, request: 'r', callId: write.call.id });
    const answer = { spec: { ...made, made: { version: 1 } }, file: 'word_count.v1.json' } as never;
    convo.apply(write, { ...createTool.outcome!(answer, write.call), answer });
    expect(convo.messages.at(-1)).toMatchObject({
      kind: 'tool',
      outcome: { status: 'ok', result: { created: 'word_count', version: 1 } },
    });
    // The new tool is offered from the next plan on.
    expect(offeredBy(convo, next(convo, 'plan')).map((t) => t.name)).toContain('word_count');
  });

  it('a check that finds problems is the call invalid input: the user is not asked', () => {
    const convo = started();
    const check = planThen(convo, calls([CREATE_TOOL, draftTool]));
    const verdict = createTool.check!.verdict({ problems: ['example 2 answered 1, not 2'], runs: [] });
    expect(verdict).toEqual({ problems: ['example 2 answered 1, not 2'] });
    convo.apply(check!, { status: 'invalid_input', problems: ['example 2 answered 1, not 2'], missing: [] });
    expect(convo.messages.at(-1)).toMatchObject({ kind: 'tool', outcome: { status: 'invalid_input' } });
    expect(next(convo, 'plan')).toBeDefined();
    expect(convo.pendingApproval()).toBeNull();
  });

  it('CreateAgent in multi-goal mode: written, then the agents listed again for the picker', () => {
    const convo = started({ multiGoal: true });
    convo.apply(next(convo, 'plan'), calls([CREATE_AGENT, { goal: draftGoal }]));
    const check = next(convo, 'run_tool');
    expect(check.check).toBe(true);
    expect(createAgent.check!.input(check.call, {} as never)).toEqual(draftGoal);
    convo.apply(check, { status: 'ok', result: createAgent.check!.verdict({ problems: [] }) });
    expect(convo.nextEffect()).toBeNull();
    expect(convo.pendingApproval()?.description).toBe(createAgent.approvalText);
    convo.confirm({ approve: true });
    const write = next(convo, 'run_tool');
    const answer = { goalId: 'goal_words', file: 'goal_words.json' };
    convo.apply(write, { ...createAgent.outcome!(answer, write.call), answer });
    expect(convo.messages.at(-1)).toMatchObject({ outcome: { result: { created: 'goal_words' } } });
    expect(next(convo, 'list_agents').call).toBeUndefined();
  });

  it('cancelled while writing: the call says it may or may not have been saved; while checking: declined', () => {
    const writing = started();
    const check = planThen(writing, calls([CREATE_AGENT, { goal: draftGoal }]));
    writing.apply(check!, { status: 'ok', result: { shown: [] } });
    expect(writing.nextEffect()).toBeNull();
    writing.confirm({ approve: true });
    const write = next(writing, 'run_tool');
    writing.cancelTurn();
    writing.applyCancelled(write);
    expect(writing.messages.filter((m) => m.kind === 'tool')).toMatchObject([
      { outcome: { status: 'tool_error', error: createAgent.cancelled } },
    ]);

    const checking = started();
    const checked = planThen(checking, calls([CREATE_TOOL, draftTool]));
    checking.cancelTurn();
    checking.applyCancelled(checked!);
    checking.nextEffect();
    expect(checking.messages.filter((m) => m.kind === 'tool')).toMatchObject([
      { outcome: { status: 'rejected', reason: 'the user cancelled the turn' } },
    ]);
  });
});
