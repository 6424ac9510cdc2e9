// How made tools read in the terminal and what `agent tools prune` proposes, from summaries as the worker lists them.
import { isoDay } from '../../core/days';
import type { MadeToolSummary, MadeToolUsage } from '../../core/made-tools';
import type { ToolSpec } from '../../core/types';
import { catalogMarkdown } from '../../client/catalog-doc';
import { formatMadeTools, madeToolLines, madeToolState } from '../../client/made-tools-format';
import { formatPruneProposal, unusedMadeTools } from '../../client/made-tools-prune';
import { formatReply, formatTools } from '../../client/terminal-format';

/** The prune's now: today's midnight (UTC); every time below is counted from it. */
const NOW = new Date(`${isoDay(new Date())}T00:00:00.000Z`);
/** `days` (and `hours`) after NOW, negative for before, as a file or the stats write it. */
const at = (days: number, hours = 0) => new Date(NOW.getTime() + (days * 24 + hours) * 3_600_000).toISOString();
/** As the terminal shows a time: YYYY-MM-DD HH:MM. */
const shortTime = (iso: string) => iso.slice(0, 16).replace('T', ' ');
/** alpha v2 made 29 days ago (within 30 days), alpha last used 121 days ago, beta made 149 days ago. */
const ALPHA_V2_MADE = at(-29, 10);
const ALPHA_USED = at(-121);
const BETA_MADE = at(-149, 8.5);
const unused: MadeToolUsage = { calls: 0, errors: 0, p50Ms: null, p95Ms: null, lastUsed: null };

const tool = (t: Partial<MadeToolSummary> & { name: string; version: number }): MadeToolSummary => ({
  file: `/tools/${t.name}.v${t.version}.json`,
  disabled: false,
  current: false,
  description: `What ${t.name} does.`,
  code: 'return 1;',
  ...t,
});

const provenance = (createdAt: string) => ({
  createdBy: 'agent-1',
  callId: 'c1',
  createdAt,
  request: 'make it',
  model: 'openai:gpt',
});

// As the worker lists them: by name, newest version first.
const made: MadeToolSummary[] = [
  tool({ name: 'alpha', version: 2, current: true, provenance: provenance(ALPHA_V2_MADE) }),
  tool({ name: 'alpha', version: 1, provenance: provenance(at(-180, 10)) }),
  tool({ name: 'beta', version: 1, disabled: true, provenance: provenance(BETA_MADE) }),
  tool({ name: 'gamma', version: 3, problems: ['examples: at least 3'], description: undefined, code: undefined }),
  tool({ name: 'gamma', version: 2, current: true }),
];

describe('made tools in the terminal', () => {
  it('tells current, older, disabled and broken files apart', () => {
    expect(made.map((t) => `${t.name} v${t.version} ${madeToolState(t)}`)).toEqual([
      'alpha v2 current',
      'alpha v1 older',
      'beta v1 disabled',
      'gamma v3 broken',
      'gamma v2 current',
    ]);
  });

  it('lists the versions on offer among the other tools, and names the names with none', () => {
    expect(madeToolLines(made)).toEqual([
      `${'alpha'.padEnd(32)} ${'[made v2]'.padEnd(28)} approval: never   What alpha does.`,
      `${'gamma'.padEnd(32)} ${'[made v2]'.padEnd(28)} approval: never   What gamma does.`,
      'made tools not offered: beta v1 (disabled) (agent tools --made says why)',
    ]);
    const catalog = { endpoints: [], registryError: null } as never;
    expect(formatTools([], catalog, 'This worker has no tools folder (TOOLS_DIR) for made tools.')).toBe(
      '(no tools)\nmade tools: This worker has no tools folder (TOOLS_DIR) for made tools.',
    );
  });

  it('shows each file with its state, problems, provenance and usage; the code when asked', () => {
    const text = formatMadeTools(
      [
        {
          ...made[0]!,
          usage: { ...unused, calls: 4, errors: 1, p50Ms: 2, p95Ms: 9, lastUsed: at(-1, 12) },
        },
        made[3]!,
      ],
      { code: true },
    );
    expect(text.split('\n')).toEqual([
      'alpha v2  current  What alpha does.',
      `  made by agent-1 at ${shortTime(ALPHA_V2_MADE)} (model openai:gpt): "make it"`,
      `  used: 4 call(s), 1 error(s), p50 2 ms, p95 9 ms, last ${shortTime(at(-1, 12))}`,
      '  file: /tools/alpha.v2.json',
      '  code:',
      '    │ return 1;',
      'gamma v3  broken',
      '  problem: examples: at least 3',
      '  file: /tools/gamma.v3.json',
    ]);
    expect(formatMadeTools([])).toBe('(no made tools)');
  });
});

describe('agent tools prune', () => {
  const withUsage = made.map((t) => ({
    ...t,
    usage: t.name === 'alpha' ? { ...unused, calls: 1, lastUsed: ALPHA_USED } : unused,
  }));

  it('proposes the names whose last use, or making when not called in that time, is older than the duration', () => {
    const proposal = unusedMadeTools(withUsage, 30 * 86_400, NOW);
    expect(proposal.before).toBe(at(-30));
    expect(proposal.unused).toEqual([
      {
        name: 'alpha',
        version: 2,
        state: 'current',
        lastUsed: ALPHA_USED,
        madeAt: ALPHA_V2_MADE,
        command: 'agent tools remove alpha',
      },
      expect.objectContaining({ name: 'beta', state: 'disabled', lastUsed: null, madeAt: BETA_MADE }),
    ]);
    expect(proposal.unknownAge).toEqual(['gamma']);
    expect(formatPruneProposal(proposal, '30d').split('\n')).toEqual([
      '2 made tool(s) unused for 30d; nothing was removed. To remove one, run:',
      `  ${'agent tools remove alpha'.padEnd(44)} # v2, last used ${shortTime(ALPHA_USED)}`,
      `  ${'agent tools remove beta'.padEnd(44)} # v1, disabled, no call in 30d, made ${shortTime(BETA_MADE)}`,
      'No call in 30d, made at a time no file records: gamma',
    ]);
  });

  it('proposes nothing when every tool was used or made since', () => {
    const proposal = unusedMadeTools(withUsage, 365 * 86_400, NOW);
    expect(proposal.unused).toEqual([]);
    expect(formatPruneProposal(proposal, '365d')).toBe(
      'No made tool has been unused for 365d.\nNo call in 365d, made at a time no file records: gamma',
    );
  });
});

describe('formatReply with a CreateTool approval', () => {
  it('prints the example runs line by line and the code as code', () => {
    const text = formatReply(
      {
        promptId: 1,
        reply: '',
        ended: false,
        pendingToolCall: {
          tool: 'CreateTool',
          description: 'Save this tool.\nIts examples:\n1. {"n":1} → 2 ✓ (0 ms)',
          call: { id: 'c1', tool: 'CreateTool', args: { name: 'double', code: 'const n = input.n;\nreturn n * 2;' } },
        },
      },
      'conv-1',
    );
    expect(text.split('\n').slice(0, 7)).toEqual([
      'agent wants to run CreateTool (Save this tool.)',
      '  Its examples:',
      '  1. {"n":1} → 2 ✓ (0 ms)',
      '  code:',
      '    const n = input.n;',
      '    return n * 2;',
      '  args: {"name":"double"}',
    ]);
  });
});

describe('where a tool lives, in agent tools and the Markdown catalog', () => {
  const base = { description: 'd', category: 'c', inputSchema: { type: 'object' }, approval: 'always' } as const;
  const http: ToolSpec = {
    ...base,
    name: 'pets__createPet',
    kind: 'http',
    http: { api: 'pets', operation: 'createPet', method: 'POST', idempotent: false, timeoutMs: 30_000 },
  };
  const madeTool: ToolSpec = { ...base, name: 'count_words', kind: 'made', approval: 'never', made: { version: 3 } };
  const catalog = { version: 'v', endpoints: [], registryError: null };

  it('names an HTTP API operation by API, method and operationId, and a made tool by its version', () => {
    const lines = formatTools([http, madeTool], catalog).split('\n');
    expect(lines[0]).toMatch(/^pets__createPet +http pets POST createPet +approval: always/);
    expect(lines[1]).toMatch(/^count_words +\[made v3\] +approval: never/);
    const doc = catalogMarkdown(
      {
        agents: { agents: [], goalIds: [], sources: {}, problems: [] },
        toolsByGoal: {},
        mcpTools: [http, madeTool],
        catalog,
      },
      { taskQueue: 'q', generatedAt: NOW },
    );
    expect(doc).toContain(
      'HTTP API `pets`, operation `createPet` (POST) (a write: never re-sent once it may have run)',
    );
    expect(doc).toContain('made tool, version 3 (a pure function run in the sandbox)');
  });
});
