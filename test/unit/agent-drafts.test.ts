// CreateAgent's checks and writes without Temporal: each reason a draft cannot be a goal, the file written with its
// provenance, a retried write of the same call accepted, and the folder's housekeeping.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentDrafts, MAX_GOAL_BYTES } from '../../goals/agent-drafts';
import { loadGoals } from '../../goals/goal-registry';
import { loadNativeTools } from '../../tools/tool-registry';
import type { GoalProvenance } from '../../core/types';

const draft = {
  id: 'goal_new_thing',
  category: 'finance',
  agentName: 'New thing',
  agentFriendlyDescription: 'Does a new thing.',
  description: 'Check balances.',
  starterPrompt: 'Greet the user.',
  tools: ['AccountBalances'],
};
const provenance: GoalProvenance = {
  createdBy: 'conv-1',
  callId: 'call-1',
  createdAt: new Date(Date.now() - 86_400_000).toISOString(),
  request: 'make me an agent',
};

function setup() {
  const folder = mkdtempSync(path.join(tmpdir(), 'drafts-'));
  const tools = loadNativeTools();
  const toolExists = (name: string) => tools.get(name) !== undefined;
  const goals = loadGoals({ folder, toolExists });
  return { folder, drafts: new AgentDrafts(goals, folder, toolExists) };
}

describe('AgentDrafts', () => {
  it('names every reason a draft cannot be a goal', async () => {
    const { drafts } = setup();
    expect((await drafts.check(draft)).problems).toEqual([]);
    expect((await drafts.check({ ...draft, id: 'Bad Id' })).problems).toEqual([
      expect.stringMatching(/^id: lowercase letters/),
    ]);
    expect((await drafts.check({ ...draft, id: 'goal_hr_pto' })).problems).toEqual([
      'the id goal_hr_pto is taken; choose another',
    ]);
    expect((await drafts.check({ ...draft, tools: ['Teleport'] })).problems).toEqual(['unknown tool(s): Teleport']);
    expect((await drafts.check({ ...draft, mcp: { servers: ['fx'] } })).problems).toEqual([
      expect.stringMatching(/MCP selection .* selects no tool/),
    ]);
    expect((await drafts.check({ ...draft, delegates: ['goal_nobody'] })).problems).toEqual([
      expect.stringMatching(/match no agent/),
    ]);
    expect((await drafts.check({ ...draft, tools: [] })).problems).toEqual([expect.stringMatching(/could do nothing/)]);
    expect((await drafts.check({ ...draft, description: 'x'.repeat(MAX_GOAL_BYTES) })).problems).toEqual([
      expect.stringMatching(/bytes; the limit is 16384/),
    ]);
  });

  it('writes the goal with its provenance, accepts a retry of the same call, refuses the id to anyone else', async () => {
    const { drafts, folder } = setup();
    expect(await drafts.create(draft, provenance)).toEqual({
      goalId: 'goal_new_thing',
      file: path.join(folder, 'goal_new_thing.json'),
    });
    expect(JSON.parse(readFileSync(path.join(folder, 'goal_new_thing.json'), 'utf8'))).toEqual({
      ...draft,
      exampleConversation: '',
      provenance,
    });
    expect(readdirSync(folder)).toEqual(['goal_new_thing.json']); // no temporary file left
    // A retried activity (the worker died after the write) finds its own file.
    expect(await drafts.create(draft, provenance)).toEqual({
      goalId: 'goal_new_thing',
      file: path.join(folder, 'goal_new_thing.json'),
    });
    expect(await drafts.create(draft, { ...provenance, callId: 'call-2' })).toEqual({
      problems: ['the id goal_new_thing is taken; choose another'],
    });
  });

  it('lists, disables, enables and removes goal files', async () => {
    const { drafts } = setup();
    await drafts.create(draft, provenance);
    expect(drafts.list()).toEqual([expect.objectContaining({ goalId: 'goal_new_thing', disabled: false, provenance })]);
    expect(drafts.manage('disable', 'goal_new_thing').disabled).toBe(true);
    expect(drafts.list()[0]?.disabled).toBe(true);
    expect(drafts.manage('enable', 'goal_new_thing').disabled).toBe(false);
    drafts.manage('remove', 'goal_new_thing');
    expect(drafts.list()).toEqual([]);
    expect(() => drafts.manage('remove', 'goal_hr_pto')).toThrow(/No goal file for goal_hr_pto/);
  });
});
