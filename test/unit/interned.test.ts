// What many conversations hold alike (goals, tool specs, catalogs) is held once per worker: interned by content,
// frozen, and equal to what each conversation gave, so replay and the first run see the same values.
import type { ResolvedGoal, ToolSpec } from '../../core/types';
import { interned, internedCount, internedGoal } from '../../workflows/interned';
import { ToolOffer } from '../../workflows/decider/tool-offer';

const spec = (name: string): ToolSpec => ({
  name,
  description: `Does ${name}.`,
  category: 'test',
  inputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
  approval: 'never',
  kind: 'mcp',
  mcp: { server: 'box', tool: name, idempotent: true, timeoutMs: 1000 },
});

/** A goal as an activity hands it to a conversation: a fresh copy each time (as deserialised from its payload). */
const resolvedCopy = (): ResolvedGoal =>
  JSON.parse(
    JSON.stringify({
      goal: {
        id: 'goal_box',
        agentName: 'Box',
        tools: [],
        description: 'd',
        starterPrompt: 's',
        exampleConversation: '',
      },
      tools: [spec('a'), spec('b')],
      catalog: { version: 'v1', endpoints: [], registryError: null },
    }),
  ) as ResolvedGoal;

describe('interned', () => {
  it('gives every equal content the same object, the first one given, deeply frozen', () => {
    const first = spec('same');
    const second = spec('same');
    expect(interned(first)).toBe(first);
    expect(interned(second)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.inputSchema) && Object.isFrozen(first.mcp)).toBe(true);
    expect(() => {
      (first as { description: string }).description = 'changed';
    }).toThrow(TypeError);
    expect(interned(spec('other'))).not.toBe(first);
  });

  it('shares a goal, its specs and its catalog between two conversations, equal to what each was given', () => {
    const [one, two] = [resolvedCopy(), resolvedCopy()];
    const [a, b] = [internedGoal(one), internedGoal(two)];
    expect(b.goal).toBe(a.goal);
    expect(b.catalog).toBe(a.catalog);
    b.tools.forEach((t, i) => expect(t).toBe(a.tools[i]));
    expect(b).toEqual(resolvedCopy());
  });

  it("is what a conversation's tool offer holds: two offers of one goal hold the same specs", () => {
    const [x, y] = [new ToolOffer(), new ToolOffer()];
    const goal = x.take(resolvedCopy(), (tools) => tools);
    expect(y.take(resolvedCopy(), (tools) => tools)).toBe(goal);
    expect(y.tools[0]).toBe(x.tools[0]);
    expect(y.catalog).toBe(x.catalog);
  });

  it('starts again past its size, so tools that keep changing cannot grow it without end', () => {
    for (let i = 0; i < 20_001; i++) interned({ n: i });
    expect(internedCount()).toBeLessThanOrEqual(20_000);
  });
});
