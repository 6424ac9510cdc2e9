import { generateText, jsonSchema, tool, type ModelMessage } from 'ai';
import { ScriptedModel, loadScript } from '../../activities/llm/scripted-model';
import { DEFAULT_SCRIPT } from '../../activities/llm/model';
import { DEFAULT_GOALS_FOLDER, loadGoals } from '../../goals/goal-registry';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const tools = {
  Lookup: tool({
    description: 'x',
    inputSchema: jsonSchema({ type: 'object', properties: { id: { type: 'string' } } }),
  }),
};
const info = (task: string, goalId = 'g') => ({ scripted: { task, goalId } });
/** What a multi-goal agent is offered besides its own tools. */
const switching = {
  ChangeGoal: tool({
    description: 'x',
    inputSchema: jsonSchema({ type: 'object', properties: { goalId: { type: 'string' } } }),
  }),
};
/** A user's request, the model's call and the tool's outcome: the transcript as the model sees it after a tool ran. */
const afterCall = (request: string, toolName: string, value: object): ModelMessage[] => [
  { role: 'user', content: request },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: '1', toolName, input: {} }] },
  {
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId: '1', toolName, output: { type: 'json', value: value as never } }],
  },
];

describe('ScriptedModel', () => {
  const model = new ScriptedModel({
    rules: [
      { goal: 'g', user: 'find (\\w+)', reply: { toolCalls: [{ tool: 'Lookup', args: { id: '{{1}}' } }] } },
      { afterTool: 'Lookup', outcome: 'ok', reply: { text: 'Found {{result.items[].name}}' } },
      { task: 'validate', user: 'pizza', reply: { json: { valid: false, reply: 'no' } } },
    ],
    fallback: { text: 'fallback' },
  });

  it('answers a user message with a templated tool call', async () => {
    const r = await generateText({ model, prompt: 'find abc', tools, providerOptions: info('plan') });
    expect(r.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['Lookup', { id: 'abc' }]]);
    expect(r.usage.inputTokens).toBeGreaterThan(0);
  });

  it('answers a tool result, mapping over arrays', async () => {
    const r = await generateText({
      model,
      providerOptions: info('plan'),
      messages: [
        { role: 'user', content: 'find abc' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: '1', toolName: 'Lookup', input: { id: 'abc' } }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: '1',
              toolName: 'Lookup',
              output: { type: 'json', value: { status: 'ok', result: { items: [{ name: 'a' }, { name: 'b' }] } } },
            },
          ],
        },
      ],
    });
    expect(r.text).toBe('Found a, b');
  });

  it('only matches rules of the goal and task, and falls back', async () => {
    expect((await generateText({ model, prompt: 'find abc', providerOptions: info('plan', 'other') })).text).toBe(
      'fallback',
    );
    expect((await generateText({ model, prompt: 'pizza', providerOptions: info('validate') })).text).toBe(
      '{"valid":false,"reply":"no"}',
    );
    expect((await generateText({ model, prompt: 'hello', providerOptions: info('validate') })).text).toBe(
      '{"valid":true}',
    );
  });

  it('loads the shipped demo script, and names the field of a broken one', () => {
    expect(loadScript(DEFAULT_SCRIPT).rules.length).toBeGreaterThan(10);
    const bad = path.join(tmpdir(), `bad-script-${process.pid}.json`);
    writeFileSync(bad, JSON.stringify({ rules: [{ reply: { toolCalls: [{ args: {} }] } }] }));
    expect(() => loadScript(bad)).toThrow(/rules\.0\.reply\.toolCalls\.0\.tool/);
  });

  it('hands a request another agent owns over with ChangeGoal, and keeps one it owns', async () => {
    const routed = new ScriptedModel({
      rules: [{ goal: 'pto', user: 'book', reply: { text: 'booking' } }],
      routes: [
        { user: 'order', goal: 'orders' },
        { user: 'pto|book', goal: 'pto' },
      ],
      fallback: { text: 'fallback' },
    });
    const plan = (prompt: string, goalId: string, offered: object = switching) =>
      generateText({ model: routed, prompt, tools: { ...offered }, providerOptions: info('plan', goalId) });
    const order = await plan('where is my order', 'pto');
    expect(order.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['ChangeGoal', { goalId: 'orders' }]]);
    // The agent's own rules come first; a request the current agent owns but has no rule for is not switched.
    expect((await plan('book my order', 'pto')).text).toBe('booking');
    expect((await plan('pto please', 'pto')).text).toBe('fallback');
    // Without ChangeGoal (single-goal mode) there is nobody to hand over to.
    expect((await plan('where is my order', 'pto', {})).text).toBe('fallback');
  });

  it("after a switch, answers the same request with the new agent's rules, else with its hello", async () => {
    const switched = new ScriptedModel({
      rules: [
        { goal: 'fx', user: 'convert (\\d+)', reply: { toolCalls: [{ tool: 'Lookup', args: { id: '{{1}}' } }] } },
        { goal: 'fx', afterTool: 'ChangeGoal', reply: { text: 'fx desk here' } },
      ],
    });
    const after = (request: string) =>
      generateText({
        model: switched,
        messages: afterCall(request, 'ChangeGoal', { status: 'ok', result: {} }),
        tools,
        providerOptions: info('plan', 'fx'),
      });
    expect((await after('convert 100 USD to EUR')).toolCalls.map((c) => [c.toolName, c.input])).toEqual([
      ['Lookup', { id: '100' }],
    ]);
    expect((await after('I want to exchange money')).text).toBe('fx desk here');
  });

  it("matches rules of any of a rule's goals, and answers any tool's error by outcome alone", async () => {
    const shared = new ScriptedModel({
      rules: [
        { goal: ['a', 'b'], user: 'hi', reply: { text: 'hello' } },
        { outcome: 'tool_error', reply: { text: 'Sorry: {{outcome.error}}' } },
      ],
      fallback: { text: 'fallback' },
    });
    expect((await generateText({ model: shared, prompt: 'hi', providerOptions: info('plan', 'b') })).text).toBe(
      'hello',
    );
    expect((await generateText({ model: shared, prompt: 'hi', providerOptions: info('plan', 'c') })).text).toBe(
      'fallback',
    );
    const failed = afterCall('book it', 'BookPTO', {
      status: 'tool_error',
      error: 'Not enough PTO: 32 hours needed, 0 left.',
    });
    expect((await generateText({ model: shared, messages: failed, providerOptions: info('plan', 'c') })).text).toBe(
      'Sorry: Not enough PTO: 32 hours needed, 0 left.',
    );
  });

  it('routes to every agent the picker lists, each with a hello for after the switch', () => {
    const demo = loadScript(DEFAULT_SCRIPT);
    const agents = loadGoals({ folder: DEFAULT_GOALS_FOLDER })
      .agents()
      .map((a) => a.goalId);
    expect(agents).toEqual(expect.arrayContaining(['goal_travel_money', 'goal_general']));
    const routed = new Set(demo.routes.map((r) => r.goal));
    const hello = new Set(
      demo.rules.filter((r) => r.afterTool === 'ChangeGoal' && typeof r.goal === 'string').map((r) => r.goal),
    );
    expect(agents.filter((id) => !routed.has(id) || !hello.has(id))).toEqual([]);
  });
});
