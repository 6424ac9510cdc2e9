// A tool made in a conversation stays its agent's: through the per-turn refresh of MCP tools, a switch to another
// agent and back, and continue-as-new (the offer's madeHere is what CarriedState.madeTools carries).
import type { ResolvedGoal, ToolSpec } from '../../core/types';
import { ToolOffer } from '../../workflows/decider/tool-offer';

const spec = (name: string, kind: ToolSpec['kind'], extra: Partial<ToolSpec> = {}): ToolSpec => ({
  name,
  description: name,
  category: 'test',
  inputSchema: { type: 'object' },
  approval: 'never',
  kind,
  ...extra,
});
const goal = (id: string, tools: ToolSpec[]): ResolvedGoal => ({
  goal: {
    id,
    category: 'c',
    agentName: id,
    agentFriendlyDescription: '',
    description: '',
    starterPrompt: '',
    exampleConversation: '',
    tools: [],
  },
  tools,
});
const same = (tools: ToolSpec[]) => tools;
const names = (offer: ToolOffer) => offer.tools.map((t) => t.name);

describe('ToolOffer: tools made here', () => {
  const made = spec('extract_urls', 'made', { made: { version: 1 } });

  it('keeps a made tool through refreshes and switches, for the agent that made it', () => {
    const offer = new ToolOffer();
    offer.take(goal('builder', [spec('CreateTool', 'builtin'), spec('fx__rate', 'mcp')]), same);
    offer.extend(made, same);
    expect(names(offer)).toEqual(['CreateTool', 'fx__rate', 'extract_urls']);

    // The per-turn look at MCP tools: one vanished, one came; the made tool stays.
    const note = offer.refreshed(1, goal('builder', [spec('CreateTool', 'builtin'), spec('fx__convert', 'mcp')]), same);
    expect(names(offer)).toEqual(['CreateTool', 'fx__convert', 'extract_urls']);
    expect(note).toBe('Tools changed since the last turn (new: fx__convert; no longer available: fx__rate).');

    offer.take(goal('other', [spec('ListAgents', 'builtin')]), same);
    expect(names(offer)).toEqual(['ListAgents']);
    offer.take(goal('builder', [spec('CreateTool', 'builtin')]), same);
    expect(names(offer)).toEqual(['CreateTool', 'extract_urls']);
  });

  it('gives the goal its own listing of the tool when it has one, and a new version replaces the old', () => {
    const offer = new ToolOffer();
    offer.take(goal('builder', [spec('CreateTool', 'builtin')]), same);
    offer.extend(made, same);
    offer.extend({ ...made, made: { version: 2 } }, same);
    expect(offer.tools.filter((t) => t.name === 'extract_urls').map((t) => t.made)).toEqual([{ version: 2 }]);
    offer.take(goal('builder', [spec('extract_urls', 'made', { made: { version: 3 } })]), same);
    expect(offer.tools.map((t) => t.made)).toEqual([{ version: 3 }]);
  });

  it('carries them into the next run', () => {
    const offer = new ToolOffer();
    offer.take(goal('builder', []), same);
    offer.extend(made, same);
    const next = new ToolOffer();
    next.madeHere = offer.madeHere;
    next.take(goal('builder', []), same);
    expect(names(next)).toEqual(['extract_urls']);
  });
});

describe('ToolOffer: the per-turn look', () => {
  it('keeps every tool when the catalog did not change (the answer carries none)', () => {
    const offer = new ToolOffer();
    offer.take(goal('general', [spec('CompleteGoal', 'builtin'), spec('gh__repos_get', 'http')]), same);
    const note = offer.refreshed(2, { ...goal('general', []), unchanged: true }, same);
    expect(note).toBeNull();
    expect(names(offer)).toEqual(['CompleteGoal', 'gh__repos_get']);
    // A real change still comes through: HTTP API tools are live like MCP tools.
    offer.refreshed(3, goal('general', [spec('CompleteGoal', 'builtin'), spec('gh__issues_create', 'http')]), same);
    expect(names(offer)).toEqual(['CompleteGoal', 'gh__issues_create']);
  });
});
