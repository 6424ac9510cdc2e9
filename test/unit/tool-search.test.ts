// SearchTools without Temporal: past TOOL_SEARCH_THRESHOLD the LLM is offered the builtins, the tools it used lately,
// those found this turn and SearchTools; searching is deterministic and finds the right tool for users' requests.
import { Conversation } from '../../workflows/decider/conversation';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import { SEARCH_TOOLS, searchTools } from '../../core/search-tools';
import { builtinRunContext } from '../../workflows/decider/builtins';
import { ToolIndex } from '../../activities/tool-search';
import type { ToolSpec } from '../../core/types';
import type { Effect } from '../../core/effects';
import { TOOLBOX_HELD_OUT_QUERIES, TOOLBOX_QUERIES, toolboxSpecs } from '../../testkit/toolbox';
import { goal, next, offeredBy, settings, text, usage } from '../helpers/conversation-unit';

const TOOLBOX: ToolSpec[] = toolboxSpecs();

function hitRate(queries: [string, string][], at: number): number {
  const index = new ToolIndex(TOOLBOX);
  return (
    queries.filter(([q, tool]) => index.find(q, at).some((m) => m.name === `toolbox__${tool}`)).length / queries.length
  );
}

describe('ToolIndex', () => {
  it('ranks by what a tool does and answers the same query the same way every time', () => {
    const index = new ToolIndex(TOOLBOX);
    const first = index.find('schedule a meeting with the design team');
    expect(first[0]).toEqual(
      expect.objectContaining({
        name: 'toolbox__calendar_create_event',
        server: 'toolbox',
        inputSchema: expect.objectContaining({ required: ['title', 'details'] }),
      }),
    );
    expect(first).toHaveLength(5);
    expect(new ToolIndex(TOOLBOX).find('schedule a meeting with the design team')).toEqual(first);
    expect(index.find('refund', 2)).toHaveLength(2);
    expect(index.find('zzzz qqqq')).toEqual([]);
  });

  it(`finds the right tool for ${TOOLBOX_QUERIES.length} requests (${TOOLBOX_HELD_OUT_QUERIES.length} more held out) over ${TOOLBOX.length} tools`, () => {
    // The rates `npm run bench` reports; floors here so a worse ranking fails.
    expect(TOOLBOX_QUERIES.length + TOOLBOX_HELD_OUT_QUERIES.length).toBeGreaterThanOrEqual(30);
    expect(hitRate(TOOLBOX_QUERIES, 5)).toBeGreaterThanOrEqual(0.9);
    expect(hitRate(TOOLBOX_QUERIES, 1)).toBeGreaterThanOrEqual(0.65);
    expect(hitRate(TOOLBOX_HELD_OUT_QUERIES, 5)).toBeGreaterThanOrEqual(0.5);
  });
});

describe('Conversation: SearchTools past TOOL_SEARCH_THRESHOLD', () => {
  const start = (threshold: number, tools = TOOLBOX) => {
    const convo = new Conversation();
    convo.begin(
      { ...settings, toolSearchThreshold: threshold },
      { goal, tools: [...tools, BUILTIN_TOOLS.CompleteGoal!] },
    );
    convo.apply(next(convo, 'plan'), text('hello'));
    return convo;
  };
  const offered = (convo: Conversation, plan: Effect<'plan'>) => offeredBy(convo, plan).map((t) => t.name);

  it('offers the builtins and SearchTools; what it finds is offered for the rest of the turn, then what was used', () => {
    const convo = start(30);
    convo.enqueuePrompt('set up a meeting');
    const first = next(convo, 'plan');
    expect(offered(convo, first)).toEqual(['CompleteGoal', SEARCH_TOOLS]);
    convo.apply(first, {
      text: '',
      toolCalls: [{ id: 's1', tool: SEARCH_TOOLS, args: { query: 'schedule a meeting', limit: 3 } }],
      usage,
    });
    // The search runs in a local activity over the goal's tools (the builtins left out), as a tool call of its own.
    const search = next(convo, 'run_tool');
    expect(search.spec.name).toBe(SEARCH_TOOLS);
    const input = searchTools.input(search.call, builtinRunContext(convo));
    expect(input).toMatchObject({ query: 'schedule a meeting', limit: 3 });
    expect(input.tools).toHaveLength(TOOLBOX.length);
    const matches = new ToolIndex(input.tools).find(input.query, input.limit);
    // As workflows/tool-kinds.ts hands it back: the outcome, with the activity's answer for what it changes.
    convo.apply(search, { ...searchTools.outcome!(matches, search.call), answer: matches });
    const second = next(convo, 'plan');
    const [found] = convo.messages.filter((m) => m.kind === 'tool');
    const foundNames = (
      found?.kind === 'tool' && found.outcome.status === 'ok'
        ? (found.outcome.result as { matches: { name: string }[] }).matches
        : []
    ).map((m) => m.name);
    expect(foundNames).toEqual(matches.map((m) => m.name));
    expect(foundNames).toHaveLength(3);
    expect(foundNames[0]).toBe('toolbox__calendar_create_event');
    expect(offered(convo, second)).toEqual([...foundNames, 'CompleteGoal', SEARCH_TOOLS]);

    // It calls one; the next turn offers what it used, not everything it found.
    convo.apply(second, {
      text: '',
      toolCalls: [{ id: 'c1', tool: 'toolbox__calendar_create_event', args: { title: 'design', details: 'Tue' } }],
      usage,
    });
    expect(convo.nextEffect()).toBeNull(); // it asks first, as any tool that is not read-only
    convo.confirm({ approve: true });
    const run = next(convo, 'run_tool');
    expect(run.spec.mcp?.tool).toBe('calendar_create_event');
    convo.apply(run, { status: 'ok', result: {} });
    convo.apply(next(convo, 'plan'), text('Booked.'));
    convo.enqueuePrompt('and another');
    expect(offered(convo, next(convo, 'plan'))).toEqual([
      'toolbox__calendar_create_event',
      'CompleteGoal',
      SEARCH_TOOLS,
    ]);
  });

  it('offers every tool at or below the threshold, and with the threshold 0 (off)', () => {
    const few = TOOLBOX.slice(0, 29);
    const convo = start(30, few);
    convo.enqueuePrompt('hi');
    expect(offered(convo, next(convo, 'plan'))).toHaveLength(30);
    const off = start(0);
    off.enqueuePrompt('hi');
    expect(offered(off, next(off, 'plan'))).toHaveLength(TOOLBOX.length + 1);
  });
});
