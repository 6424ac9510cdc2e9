import {
  renderPlanSystemPrompt,
  renderSummaryPrompt,
  renderValidateSystemPrompt,
  splitPlanSystemPrompt,
} from '../../activities/llm/prompts';
import { toModelMessages } from '../../activities/llm/model-messages';
import { loadGoals } from '../../goals/goal-registry';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import type { ChatMessage } from '../../core/types';
import { isoDay, mondayOfWeek } from '../../core/days';

// The snapshot holds the prompt with today's date in words replaced: it must read the same on any day.
const today = isoDay(new Date());
const undated = (prompt: string) => prompt.replace(/Today is \w+ \d{4}-\d{2}-\d{2}:/, 'Today is <weekday> <today>:');

const goal = loadGoals().resolve('goal_hr_pto');
const messages: ChatMessage[] = [
  { kind: 'user', text: 'balance for ada@example.com', promptId: 1 },
  { kind: 'agent', text: '', toolCalls: [{ id: 'c1', tool: 'CurrentPTO', args: { email: 'ada@example.com' } }] },
  {
    kind: 'tool',
    call: { id: 'c1', tool: 'CurrentPTO', args: { email: 'ada@example.com' } },
    outcome: { status: 'ok', result: { hoursLeft: 104 } },
  },
  { kind: 'agent', text: 'You have 104 hours.', toolCalls: [] },
  { kind: 'note', text: 'Switched agent.' },
];

describe('prompts', () => {
  it('renders the planning system prompt from structured state', () => {
    const prompt = renderPlanSystemPrompt({
      today,
      goal,
      tools: [BUILTIN_TOOLS.CompleteGoal!, BUILTIN_TOOLS.ChangeGoal!],
      summary: 'The user is Ada.',
      agents: [
        { goalId: 'goal_order_status', agentName: 'Order status', description: 'Orders.', category: 'ecommerce' },
      ],
    });
    expect(prompt).toContain(`${today}:`);
    expect(undated(prompt)).toMatchSnapshot();
  });
  it('tells the model which weekday today is', () => {
    const monday = mondayOfWeek(today, 1);
    const prompt = renderPlanSystemPrompt({ today: monday, goal, tools: [], summary: '', agents: [] });
    expect(prompt).toContain(`- Today is Monday ${monday}: read "next Monday"`);
  });
  it('splits the planning prompt into its stable part and the summary after it (the cacheable prefix)', () => {
    const input = { today, goal, tools: [BUILTIN_TOOLS.CompleteGoal!], agents: [] };
    const without = renderPlanSystemPrompt({ ...input, summary: '' });
    expect(splitPlanSystemPrompt(without)).toEqual({ stable: without });
    const withSummary = renderPlanSystemPrompt({ ...input, summary: 'The user is Ada.' });
    expect(splitPlanSystemPrompt(withSummary)).toEqual({
      stable: without,
      summary: 'Summary of the conversation so far (older messages were condensed):\nThe user is Ada.',
    });
  });
  it('renders the validation and summary prompts', () => {
    expect(renderValidateSystemPrompt(goal)).toMatchSnapshot();
    expect(renderSummaryPrompt(goal, 'before', messages)).toMatchSnapshot();
  });
  it('converts messages to provider-neutral model messages with paired tool calls and results', () => {
    expect(toModelMessages(messages)).toMatchSnapshot();
  });
});
