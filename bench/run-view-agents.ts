// The agents whose runs the run-view benchmark watches: a boss that hands two tasks to two shipped agents at once (the
// PTO desk runs CurrentPTO, the order desk GetOrder), each answering in one more model call, and the boss answering
// with both. The boss's goal file goes in a GOALS_DIR of the run's own. The same shape as the delegation tests'
// boss (test/fixtures/delegation.ts), which bench/ may not import.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScriptInput } from '../activities/llm/scripted-model';
import { ASK_AGENT } from '../core/builtin-specs';
import type { Goal } from '../core/types';

export const BOSS_GOAL = 'bench_run_view_boss';
const PTO = 'goal_hr_pto';
const ORDERS = 'goal_order_status';
export const PROMPT = 'both ada@example.com ORD-1001';
/** The boss's answer once both delegates have (in either order). */
export const REPLY = /^Boss: (?=.*\d+ hours left\.)(?=.*ORD-1001 is \w+\.)/;

const BOSS: Goal = {
  id: BOSS_GOAL,
  category: 'bench',
  agentName: 'Boss',
  agentFriendlyDescription: 'Boss (benchmark)',
  description: 'Boss: hands work to other agents.',
  starterPrompt: 'Greet the user',
  exampleConversation: '',
  tools: [],
  delegates: [PTO, ORDERS],
};

/** A goals folder with the boss; returns its path. */
export function bossGoalsDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-run-view-'));
  writeFileSync(path.join(dir, `${BOSS_GOAL}.json`), JSON.stringify(BOSS));
  return dir;
}

const ask = (goalId: string, task: string) => ({ tool: ASK_AGENT, args: { goalId, task } });

export const BOSS_SCRIPT: ScriptInput = {
  rules: [
    { goal: BOSS_GOAL, user: '^Greet the user', reply: { text: 'Boss here.' } },
    {
      goal: BOSS_GOAL,
      user: '^both (\\S+) (ORD-\\d+)',
      reply: { toolCalls: [ask(PTO, 'PTO left for {{1}}'), ask(ORDERS, 'where is {{2}}')] },
    },
    { goal: BOSS_GOAL, afterTool: ASK_AGENT, reply: { text: 'Boss: {{results[].result.summary}}' } },
    {
      goal: PTO,
      user: 'PTO left for (\\S+)',
      reply: { toolCalls: [{ tool: 'CurrentPTO', args: { email: '{{1}}' } }] },
    },
    { goal: PTO, afterTool: 'CurrentPTO', outcome: 'ok', reply: { text: '{{result.hoursLeft}} hours left.' } },
    {
      goal: ORDERS,
      user: 'where is (ORD-\\d+)',
      reply: { toolCalls: [{ tool: 'GetOrder', args: { orderId: '{{1}}' } }] },
    },
    { goal: ORDERS, afterTool: 'GetOrder', outcome: 'ok', reply: { text: '{{result.id}} is {{result.status}}.' } },
  ],
};
