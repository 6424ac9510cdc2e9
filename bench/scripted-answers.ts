// What the zero-latency scripted model answers in the benchmarks: a fixed reply per bench prompt, so every turn of
// a scenario takes the same path. Prompts and replies live here, next to the rules that match them. Validation
// (task "validate") has no rule: the scripted model's default verdict is { valid: true }.
import type { ScriptInput } from '../activities/llm/scripted-model';

export const PTO_GOAL = 'goal_hr_pto';
export const MCP_GOAL = 'goal_general';

export const TEXT_PROMPT = 'bench: say something short';
export const TEXT_REPLY = 'Here is a short answer.';
export const TOOL_PROMPT = 'bench: balance for ada@example.com';
export const TOOL_REPLY = 'You have 104 hours of PTO left.';
export const MCP_PROMPT = 'bench: convert 100 USD to EUR';
export const MCP_REPLY = '100 USD is 92 EUR.';

type Rule = ScriptInput['rules'][number];

const ptoBalance: Rule[] = [
  {
    user: '^bench: balance for ([\\w.]+@[\\w.]+\\w)',
    reply: { toolCalls: [{ tool: 'CurrentPTO', args: { email: '{{1}}' } }] },
  },
  { afterTool: 'CurrentPTO', outcome: 'ok', reply: { text: 'You have {{result.hoursLeft}} hours of PTO left.' } },
];

/** The chat-turn scenarios, all on goal_hr_pto. */
export const turnScript: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi! I can check and book your PTO. What is your work email?' } },
    { user: '^bench: say', reply: { text: TEXT_REPLY } },
    ...ptoBalance,
  ],
};

/** The MCP turns: fx convert on goal_general, and the native-tool control on goal_hr_pto. */
export const mcpScript: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi! How can I help?' } },
    {
      user: '^bench: convert (\\d+) (\\w{3}) to (\\w{3})',
      reply: { toolCalls: [{ tool: 'fx__convert', args: { amount: '{{1:number}}', from: '{{2}}', to: '{{3}}' } }] },
    },
    {
      afterTool: 'fx__convert',
      outcome: 'ok',
      reply: { text: '{{result.amount}} {{result.from}} is {{result.converted}} {{result.to}}.' },
    },
    ...ptoBalance,
  ],
};
