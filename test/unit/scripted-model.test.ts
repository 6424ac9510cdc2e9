import { generateText, jsonSchema, tool } from 'ai';
import { ScriptedModel, loadScript } from '../../activities/llm/scripted-model';
import { DEFAULT_SCRIPT } from '../../activities/llm/model';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const tools = { Lookup: tool({ description: 'x', inputSchema: jsonSchema({ type: 'object', properties: { id: { type: 'string' } } }) }) };
const info = (task: string, goalId = 'g') => ({ scripted: { task, goalId } });

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
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: '1', toolName: 'Lookup', input: { id: 'abc' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: '1', toolName: 'Lookup', output: { type: 'json', value: { status: 'ok', result: { items: [{ name: 'a' }, { name: 'b' }] } } } }] },
      ],
    });
    expect(r.text).toBe('Found a, b');
  });

  it('only matches rules of the goal and task, and falls back', async () => {
    expect((await generateText({ model, prompt: 'find abc', providerOptions: info('plan', 'other') })).text).toBe('fallback');
    expect((await generateText({ model, prompt: 'pizza', providerOptions: info('validate') })).text).toBe('{"valid":false,"reply":"no"}');
    expect((await generateText({ model, prompt: 'hello', providerOptions: info('validate') })).text).toBe('{"valid":true}');
  });

  it('loads the shipped demo script, and names the field of a broken one', () => {
    expect(loadScript(DEFAULT_SCRIPT).rules.length).toBeGreaterThan(10);
    const bad = path.join(tmpdir(), `bad-script-${process.pid}.json`);
    writeFileSync(bad, JSON.stringify({ rules: [{ reply: { toolCalls: [{ args: {} }] } }] }));
    expect(() => loadScript(bad)).toThrow(/rules\.0\.reply\.toolCalls\.0\.tool/);
  });
});
