import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GoalRegistry, loadGoals, PICKER_GOAL_ID } from '../../goals/goal-registry';
import { loadNativeTools } from '../../tools/tool-registry';
import { createGoalActivities } from '../../activities/goal-activities';
import { readWorkerSettings } from '../../worker/worker-settings';
import type { Goal } from '../../core/types';

describe('tool and goal registries', () => {
  const tools = loadNativeTools();
  const goals = loadGoals();

  it('finds every native tool file and derives JSON Schema from zod', () => {
    expect(tools.names()).toEqual(
      expect.arrayContaining(['BookPTO', 'CurrentPTO', 'FuturePTOCalc', 'GetOrder', 'ListOrders', 'TrackPackage']),
    );
    expect(tools.spec('BookPTO')).toMatchObject({
      approval: 'default',
      inputSchema: {
        type: 'object',
        required: ['email', 'startDate', 'endDate'],
        properties: { startDate: { type: 'string', pattern: expect.any(String) } },
      },
    });
    expect(tools.spec('CurrentPTO')?.approval).toBe('never');
  });

  it('finds every goal file and checks their tools', () => {
    expect(goals.ids()).toEqual(
      expect.arrayContaining([
        'goal_choose_agent',
        'goal_currency_desk',
        'goal_general',
        'goal_hr_pto',
        'goal_order_status',
      ]),
    );
    const toolExists = (n: string) => tools.get(n) !== undefined;
    expect(() => loadGoals({ toolExists })).not.toThrow();
    const broken = () =>
      new GoalRegistry(
        [{ ...goals.resolve('goal_hr_pto'), id: 'g2', tools: ['CurrentPTO', 'Teleport'] } as Goal],
        undefined,
        toolExists,
      );
    expect(broken).toThrow('goal "g2" lists the unknown tool "Teleport"');
  });

  it('parses code goals with the same schema as JSON goals, naming the file and field', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'code-goals-'));
    writeFileSync(path.join(dir, 'bad.js'), "module.exports.default = { id: 'Bad Id', tools: [] };");
    expect(() => loadGoals({ dir })).toThrow(/The goal in .*bad\.js is invalid: id: lowercase letters/);
  });

  it('resolves a goal, or fails with the one non-retryable UnknownGoal naming the known ids', () => {
    expect(goals.resolve('goal_hr_pto').id).toBe('goal_hr_pto');
    expect(() => goals.resolve('nope')).toThrow(
      expect.objectContaining({
        type: 'UnknownGoal',
        nonRetryable: true,
        message: expect.stringMatching(/^Unknown goal "nope"\. Known goals: .*goal_hr_pto/),
      }),
    );
  });

  it('lists agents without the picker, filtered by normalised category', () => {
    expect(goals.agents().map((a) => a.goalId)).not.toContain(PICKER_GOAL_ID);
    expect(goals.agents([' HR ']).map((a) => a.goalId)).toContain('goal_hr_pto');
    expect(goals.agents([' HR ']).every((a) => a.category === 'hr')).toBe(true);
  });

  it('resolves a goal with its tools and the builtins the mode asks for', async () => {
    const config = readWorkerSettings({ AGENT_GOAL: 'goal_hr_pto' } as NodeJS.ProcessEnv);
    const single = createGoalActivities({ settings: config.conversation, goals, tools });
    expect((await single.resolveGoal('goal_hr_pto')).tools.map((t) => t.name)).toEqual([
      'CurrentPTO',
      'FuturePTOCalc',
      'BookPTO',
      'CompleteGoal',
      // The owner's memories, asked before each write (MEMORY on, the goal's memory.write `ask` by default).
      'Remember',
      'Forget',
    ]);
    expect(
      (await single.resolveGoal('goal_hr_pto')).tools.filter((t) => t.category === 'memory').map((t) => t.approval),
    ).toEqual(['always', 'always']);
    const off = createGoalActivities({ settings: { ...config.conversation, memory: false }, goals, tools });
    expect((await off.resolveGoal('goal_hr_pto')).tools.map((t) => t.name)).not.toContain('Remember');
    const multi = createGoalActivities({ settings: { ...config.conversation, multiGoal: true }, goals, tools });
    expect((await multi.resolveGoal('goal_hr_pto')).tools.map((t) => t.name)).toContain('ListAgents');
    await expect(single.resolveGoal('nope')).rejects.toMatchObject({ type: 'UnknownGoal', nonRetryable: true });
  });
});

describe('worker settings from the environment', () => {
  it('has sane defaults: confirm on, validation on, picker in multi-goal mode', () => {
    const s = readWorkerSettings({} as NodeJS.ProcessEnv);
    expect(s.defaultGoalId).toBe(PICKER_GOAL_ID);
    expect(s.conversation).toMatchObject({
      showConfirm: true,
      validatePrompts: true,
      multiGoal: true,
      maxToolStepsPerTurn: 8,
    });
    expect(s.taskQueue).toBe('agent-task-queue');
    expect(s.mcpMaxStdioProcesses).toBe(16);
  });
  it('names the variable in errors', () => {
    expect(() => readWorkerSettings({ SHOW_CONFIRM: 'maybe' } as NodeJS.ProcessEnv)).toThrow(
      'SHOW_CONFIRM must be true or false, got "maybe"',
    );
    expect(() => readWorkerSettings({ MAX_TOOL_STEPS: '0' } as NodeJS.ProcessEnv)).toThrow(
      /MAX_TOOL_STEPS must be a whole number/,
    );
    expect(() => readWorkerSettings({ LLM_BASE_URL: 'not a url' } as NodeJS.ProcessEnv)).toThrow(
      /LLM_BASE_URL must be a URL/,
    );
    expect(() => readWorkerSettings({ MCP_MAX_STDIO_PROCESSES: '0' } as NodeJS.ProcessEnv)).toThrow(
      /MCP_MAX_STDIO_PROCESSES must be a whole number ≥ 1/,
    );
  });
  it('parses categories and single-goal mode', () => {
    const s = readWorkerSettings({
      AGENT_GOAL: 'goal_hr_pto',
      GOAL_CATEGORIES: 'hr, ecommerce',
      SHOW_CONFIRM: 'false',
    } as NodeJS.ProcessEnv);
    expect(s.conversation).toMatchObject({ multiGoal: false, showConfirm: false, goalCategories: ['hr', 'ecommerce'] });
  });
});
