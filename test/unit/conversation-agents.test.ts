// Conversation decides what the builtin tools mean (ListAgents, ChangeGoal, CompleteGoal), goal switches and
// per-turn tool refreshes: driven here effect by effect, with no Temporal.
import { Conversation } from '../../workflows/decider/conversation';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import { PATCHES } from '../../workflows/versions';
import type { AgentSummary, Goal, ResolvedGoal } from '../../core/types';
import { book, calls, goal, next, offeredBy, planThen, settings, text } from '../helpers/conversation-unit';
import { prepareCarry, transcript } from '../../workflows/decider/views';

const multi = { ...settings, multiGoal: true };
const builtins = [BUILTIN_TOOLS.ListAgents!, BUILTIN_TOOLS.ChangeGoal!, BUILTIN_TOOLS.CompleteGoal!];
const picker: Goal = { ...goal, id: 'picker', agentName: 'Picker', starterPrompt: 'pick', tools: [] };
const agents: AgentSummary[] = [{ goalId: 'g', agentName: 'Agent', description: 'books', category: 'c' }];
const resolved = (g: Goal): ResolvedGoal => ({ goal: g, tools: [...(g.id === 'picker' ? [] : [book]), ...builtins] });

/** A multi-goal conversation in goal `g` (or the picker), past its start-up listing and greeting. */
function inAgent(start: Goal = goal): Conversation {
  const convo = new Conversation();
  convo.begin(multi, resolved(start));
  // Multi-goal runs list the agents first, so the planner knows them from the first turn.
  const listing = next(convo, 'list_agents');
  expect(listing.call).toBeUndefined();
  convo.apply(listing, agents);
  expect(next(convo, 'plan').request.agents).toEqual(agents);
  convo.apply({ kind: 'plan', request: { goal: start, tools: [], messages: [], summary: '', agents } }, text('hi'));
  convo.enqueuePrompt('what else can you do?');
  return convo;
}

describe('Conversation: builtin tools', () => {
  it('ListAgents from an agent lists, checks the versioned path, returns to the picker', () => {
    const convo = inAgent();
    expect(planThen(convo, calls(['ListAgents', {}]))).toMatchObject({
      kind: 'list_agents',
      call: { tool: 'ListAgents' },
    });
    convo.apply({ kind: 'list_agents', call: { id: 'c0', tool: 'ListAgents', args: {} } }, agents);
    const version = next(convo, 'check_version');
    expect(version.patchId).toBe(PATCHES.listAgentsReturnsToPicker);
    // Mid-builtin: no continue-as-new until the call has its outcome.
    expect(convo.mayContinueAsNew()).toBe(false);
    convo.apply(version, true);
    const back = next(convo, 'resolve_goal');
    expect(back).toMatchObject({ goalId: 'picker', why: 'list_agents' });
    convo.apply(back, resolved(picker));
    expect(convo.goal.id).toBe('picker');
    expect(convo.messages.at(-1)).toMatchObject({ kind: 'tool', outcome: { status: 'ok', result: { agents } } });
    expect(convo.nextEffect()).toMatchObject({ kind: 'plan' });
  });

  it('ListAgents in a run recorded before the change answers with the list and stays', () => {
    const convo = inAgent();
    planThen(convo, calls(['ListAgents', {}]));
    convo.apply({ kind: 'list_agents', call: { id: 'c0', tool: 'ListAgents', args: {} } }, agents);
    convo.apply(next(convo, 'check_version'), false);
    expect(convo.goal.id).toBe('g');
    expect(convo.messages.at(-1)).toMatchObject({ outcome: { status: 'ok', result: { agents } } });
    expect(convo.nextEffect()).toMatchObject({ kind: 'plan' });
  });

  it('ListAgents in the picker answers with the list, with no version check', () => {
    const convo = inAgent(picker);
    planThen(convo, calls(['ListAgents', {}]));
    convo.apply({ kind: 'list_agents', call: { id: 'c0', tool: 'ListAgents', args: {} } }, agents);
    expect(convo.agents).toEqual(agents);
    expect(convo.nextEffect()).toMatchObject({ kind: 'plan' });
  });

  it('a failed listing is a tool error the LLM reads', () => {
    const convo = inAgent();
    const listing = planThen(convo, calls(['ListAgents', {}]));
    convo.apply(listing as never, { failed: 'worker gone' });
    expect(convo.messages.at(-1)).toMatchObject({ outcome: { status: 'tool_error', error: 'worker gone' } });
  });

  it('ChangeGoal resolves the goal and switches; an unknown goal is a tool error and no switch', () => {
    const convo = inAgent(picker);
    const change = planThen(convo, calls(['ChangeGoal', { goalId: 'g' }]));
    expect(change).toMatchObject({ kind: 'resolve_goal', goalId: 'g', why: 'change_goal' });
    convo.apply(change as never, resolved(goal));
    expect(convo.goal.id).toBe('g');
    expect(convo.messages.at(-1)).toMatchObject({ outcome: { status: 'ok', result: { switchedTo: 'Agent' } } });

    const again = planThen(convo, calls(['ChangeGoal', { goalId: 'nope' }]));
    convo.apply(again as never, { failed: 'Unknown goal "nope". Known goals: g, picker.' });
    expect(convo.goal.id).toBe('g');
    expect(convo.messages.at(-1)).toMatchObject({
      outcome: { status: 'tool_error', error: expect.stringContaining('Unknown goal') },
    });
  });

  it('CompleteGoal in an agent hands the conversation back to the picker instead of ending it', () => {
    const convo = inAgent();
    const done = planThen(convo, calls(['CompleteGoal', { summary: 'booked' }]));
    expect(done).toMatchObject({ kind: 'resolve_goal', goalId: 'picker', why: 'complete_goal' });
    convo.apply(done as never, resolved(picker));
    expect(convo.ended).toBe(false);
    expect(convo.goal.id).toBe('picker');
    expect(convo.messages.at(-1)).toMatchObject({
      outcome: { status: 'ok', result: { completed: 'g', next: 'pick a new agent' } },
    });
  });

  it('CompleteGoal in the picker ends the conversation', () => {
    const convo = inAgent(picker);
    expect(planThen(convo, calls(['CompleteGoal', {}]))).toBeNull();
    expect(convo.ended).toBe(true);
    expect(transcript(convo).endedBy).toBe('goal_complete');
  });
});

describe('Conversation: goal switches and tool refreshes', () => {
  it('a client goal change resolves the goal, notes it and opens the new agent with its starter prompt', () => {
    const convo = inAgent(picker);
    convo.requestGoalChange('g');
    const sw = next(convo, 'resolve_goal');
    expect(sw).toMatchObject({ goalId: 'g', why: 'switch' });
    convo.apply(sw, resolved(goal));
    expect(convo.messages.at(-1)).toMatchObject({
      kind: 'note',
      text: expect.stringContaining('Switched to the agent "Agent"'),
    });
    convo.apply(next(convo, 'plan'), text('hello from g'));
    expect(convo.messages.filter((m) => m.kind === 'user').map((m) => m.kind === 'user' && m.text)).toContain('start');
  });

  it('a failed client goal change is noted and the agent stays', () => {
    const convo = inAgent(picker);
    convo.requestGoalChange('nope');
    convo.apply(next(convo, 'resolve_goal'), { failed: 'Unknown goal "nope"' });
    expect(convo.goal.id).toBe('picker');
    expect(convo.messages.at(-1)).toMatchObject({ kind: 'note', text: 'Could not switch agent: Unknown goal "nope"' });
  });

  it('re-resolves an MCP goal before each turn and tells the LLM which tools came and went', () => {
    const mcpGoal: Goal = { ...goal, mcp: { servers: ['fx'] } };
    const convo = new Conversation();
    const rates = { ...book, name: 'fx__get_rates', kind: 'mcp' as const };
    convo.begin(settings, { goal: mcpGoal, tools: [book, rates] });
    convo.apply(next(convo, 'plan'), text('hi'));
    convo.enqueuePrompt('convert 5 USD');
    const refresh = next(convo, 'resolve_goal');
    expect(refresh).toMatchObject({ why: 'refresh', goalId: 'g' });
    const convert = { ...book, name: 'fx__convert', kind: 'mcp' as const };
    // The goal's file was edited meanwhile (another name, Book dropped): this conversation keeps the version it
    // started with; only the MCP tools are live.
    convo.apply(refresh, { goal: { ...mcpGoal, agentName: 'Edited', tools: [] }, tools: [convert] });
    expect(convo.messages.at(-1)).toMatchObject({
      kind: 'note',
      text: 'Tools changed since the last turn (new: fx__convert; no longer available: fx__get_rates).',
    });
    expect(offeredBy(convo, next(convo, 'plan'))).toEqual([book, convert]);
    expect(convo.goal.agentName).toBe('Agent');
  });

  it('does not refresh in runs recorded before per-turn discovery', () => {
    const convo = new Conversation();
    convo.begin(
      settings,
      { goal: { ...goal, mcp: { servers: ['fx'] } }, tools: [book] },
      { refreshToolsEachTurn: false },
    );
    convo.apply(next(convo, 'plan'), text('hi'));
    convo.enqueuePrompt('again');
    expect(convo.nextEffect()).toMatchObject({ kind: 'plan' });
  });
});

describe('Conversation: prompts and continue-as-new', () => {
  it('refuses empty, oversized and after-end prompts with a reason', () => {
    const convo = inAgent();
    expect(convo.promptRefusal('  ')).toBe('The prompt is empty.');
    expect(convo.promptRefusal('x'.repeat(16_001))).toMatch(/16001 characters; the limit is 16000/);
    expect(convo.promptRefusal('hello')).toBeNull();
    convo.endChat();
    expect(convo.promptRefusal('hello')).toMatch(/has ended/);
  });

  it('hands the next run its goal, budget, summary and queued prompts', () => {
    const convo = new Conversation({ goalId: 'g', historyEventBudget: 60 });
    convo.begin(settings, resolved(goal));
    expect(convo.settings.historyEventBudget).toBe(60);
    convo.apply(next(convo, 'plan'), text('hi'));
    convo.enqueuePrompt('later');
    const { summarize, nextRun } = prepareCarry(convo);
    expect(summarize).toBeNull();
    expect(nextRun('s')).toMatchObject({
      goalId: 'g',
      historyEventBudget: 60,
      carried: { summary: 's', pendingPrompts: [{ text: 'later' }] },
    });
  });
});
