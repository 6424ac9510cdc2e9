// goals/resolve.ts without Temporal: a goal becomes its tools (its own, the builtins its mode adds, the MCP tools it
// selects), and a goal file's approval may tighten but never loosen what tools that change state ask.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GoalFolder } from '../../goals/goal-folder';
import { GoalRegistry } from '../../goals/goal-registry';
import { resolveGoal, type ResolveGoalDeps } from '../../goals/resolve';
import { unknownGoalMessage } from '../../goals/unknown-goal';
import type { McpCatalog, McpDiscovery } from '../../endpoints/catalog';
import { loadNativeTools } from '../../tools/tool-registry';
import type { Goal, ToolSpec } from '../../core/types';

const tools = loadNativeTools();

const goal = (id: string, extra: Partial<Goal> = {}): Goal => ({
  id,
  category: 'finance',
  agentName: id,
  agentFriendlyDescription: `The ${id} agent.`,
  description: 'Help.',
  starterPrompt: 'Greet the user.',
  exampleConversation: '',
  tools: [],
  ...extra,
});

const mcpTool = (tool: string, readOnly: boolean): ToolSpec => ({
  name: `fx__${tool}`,
  description: tool,
  category: 'finance',
  inputSchema: { type: 'object' },
  approval: 'default',
  kind: 'mcp',
  readOnly,
  mcp: { server: 'fx', tool, idempotent: readOnly, timeoutMs: 1_000 },
});

const CATALOG: McpCatalog = {
  version: 'v',
  endpoints: [{ name: 'fx', status: 'ok', toolCount: 2, transport: 'stdio', categories: ['finance'] }],
  registryError: null,
  tools: [mcpTool('rates', true), mcpTool('book_trade', false)],
  definitions: new Map(),
  operations: new Map(),
};
// Only what resolveGoal asks of discovery: the catalog now, or as last seen.
const discovery = { catalog: async () => CATALOG, peek: () => CATALOG } as unknown as McpDiscovery;

/** A registry with `code` goals and a goals folder holding `files` (written as JSON). */
function registry(code: Goal[], files: Goal[] = []): GoalRegistry {
  const dir = mkdtempSync(path.join(tmpdir(), 'resolve-goals-'));
  for (const g of files) writeFileSync(path.join(dir, `${g.id}.json`), JSON.stringify(g));
  return new GoalRegistry(code, new GoalFolder(dir), (n) => tools.get(n) !== undefined);
}

const deps = (goals: GoalRegistry, multiGoal = false): ResolveGoalDeps => ({
  settings: { multiGoal },
  goals,
  tools,
  discovery,
});
const names = (r: { tools: ToolSpec[] }) => r.tools.map((t) => t.name);
const approvals = (r: { tools: ToolSpec[] }) => Object.fromEntries(r.tools.map((t) => [t.name, t.approval]));

describe('resolveGoal', () => {
  it('gives a goal its own tools, then CompleteGoal; multi-goal mode adds ListAgents and ChangeGoal', async () => {
    const goals = registry([goal('goal_money', { tools: ['FindAccount', 'MoveMoney'] })]);
    expect(names(await resolveGoal('goal_money', deps(goals)))).toEqual(['FindAccount', 'MoveMoney', 'CompleteGoal']);
    expect(names(await resolveGoal('goal_money', deps(goals, true)))).toEqual([
      'FindAccount',
      'MoveMoney',
      'CompleteGoal',
      'ListAgents',
      'ChangeGoal',
    ]);
  });

  it('lists a builtin once even when the goal names it too', async () => {
    const goals = registry([goal('goal_money', { tools: ['ListAgents', 'CompleteGoal'] })]);
    expect(names(await resolveGoal('goal_money', deps(goals, true)))).toEqual([
      'ListAgents',
      'CompleteGoal',
      'ChangeGoal',
    ]);
  });

  it('offers AskAgent with the delegates as they are now, never the goal itself', async () => {
    const goals = registry([goal('goal_lead', { delegates: ['finance'] }), goal('goal_helper')]);
    const ask = (await resolveGoal('goal_lead', deps(goals))).tools.find((t) => t.name === 'AskAgent');
    const goalId = (ask?.inputSchema.properties as Record<string, { enum?: string[] }>).goalId;
    expect(goalId?.enum).toEqual(['goal_helper']);
  });

  it('describes what CreateAgent can build with: native tools, MCP servers and agents', async () => {
    const goals = registry([goal('goal_builder', { tools: ['CreateAgent'] }), goal('goal_helper')]);
    const create = (await resolveGoal('goal_builder', deps(goals))).tools.find((t) => t.name === 'CreateAgent');
    expect(create?.description).toContain('MoveMoney (finance)');
    expect(create?.description).toContain('fx [finance] (2 tools)');
    expect(create?.description).toContain('goal_helper (finance)');
  });

  it('adds the MCP tools the goal selects, with the catalog they came from', async () => {
    const goals = registry([goal('goal_fx', { mcp: { servers: ['fx'] } }), goal('goal_plain')]);
    const fx = await resolveGoal('goal_fx', deps(goals));
    expect(names(fx)).toEqual(['CompleteGoal', 'fx__rates', 'fx__book_trade']);
    expect(fx.catalog).toMatchObject({ endpoints: CATALOG.endpoints, registryError: null });
    // A goal without MCP tools never waits for a discovery.
    const plain = await resolveGoal('goal_plain', { ...deps(goals), discovery: undefined });
    expect(plain.catalog).toEqual({ version: expect.any(String), endpoints: [], registryError: null });
  });

  it('lets a goal file turn approval off for read-only tools only, and drops its "never" from the goal', async () => {
    const loose = goal('goal_loose', { mcp: { servers: ['fx'] }, settings: { approval: 'never' } });
    const resolved = await resolveGoal('goal_loose', deps(registry([], [loose])));
    expect(approvals(resolved)).toMatchObject({ fx__rates: 'never', fx__book_trade: 'default' });
    expect(resolved.goal.settings).toEqual({});
  });

  it('leaves a code goal’s approval as written', async () => {
    const trusted = goal('goal_trusted', { mcp: { servers: ['fx'] }, settings: { approval: 'never' } });
    const resolved = await resolveGoal('goal_trusted', deps(registry([trusted])));
    expect(approvals(resolved)).toMatchObject({ fx__rates: 'default', fx__book_trade: 'default' });
    expect(resolved.goal.settings).toEqual({ approval: 'never' });
  });

  it('fails with the non-retryable UnknownGoal, or Misconfigured for a tool nobody defines', async () => {
    const goals = new GoalRegistry([goal('goal_odd', { tools: ['Teleport'] })]);
    await expect(resolveGoal('nope', deps(goals))).rejects.toMatchObject({
      type: 'UnknownGoal',
      nonRetryable: true,
      message: unknownGoalMessage('nope', ['goal_odd']),
    });
    await expect(resolveGoal('goal_odd', deps(goals))).rejects.toMatchObject({
      type: 'Misconfigured',
      nonRetryable: true,
      message: 'Goal "goal_odd" lists the unknown tool "Teleport".',
    });
  });
});

describe('unknownGoalMessage', () => {
  it('is null for a known goal, and otherwise names the goals there are', () => {
    expect(unknownGoalMessage('goal_a', ['goal_a', 'goal_b'])).toBeNull();
    expect(unknownGoalMessage('goal_c', ['goal_a', 'goal_b'])).toBe(
      'Unknown goal "goal_c". Known goals: goal_a, goal_b.',
    );
  });
});
