// The planning request as each provider receives it, laid out for its prompt cache (activities/llm/cache-layout.ts):
// the stable system prompt first and alone, the summary (the one part that changes) in a system block after it;
// Anthropic's breakpoints on the last tool, the stable system block and the last message; OpenAI's cache key per agent.
// Read from the request bodies a replay server recorded; the planning activity runs in the test's process.
import type { ChatMessage } from '../../core/types';
import { startWireBench, WIRE_GOAL, WIRE_TOOLS, type WireBench } from '../helpers/provider-wire';
import type { WireProvider } from '../../testkit/wire-replay';

const SUMMARY =
  'Summary of the conversation so far (older messages were condensed):\nThe user is Ada (ada@example.com).';
const messages: ChatMessage[] = [
  { kind: 'user', text: 'Where is ORD-1001?', promptId: 1 },
  { kind: 'agent', text: 'Order ORD-1001 shipped yesterday.', toolCalls: [] },
  { kind: 'user', text: 'And the weather in Paris?', promptId: 2 },
];

/** The request body `provider` was sent for one planned turn with a summary. */
async function requestBody(provider: WireProvider): Promise<Record<string, unknown>> {
  const wire: WireBench = await startWireBench(provider);
  try {
    wire.replay.play('cached-usage');
    await wire.llm.planTurn({
      goal: WIRE_GOAL,
      tools: WIRE_TOOLS,
      messages,
      summary: 'The user is Ada (ada@example.com).',
      agents: [],
    });
    return wire.replay.requests[0]!.body;
  } finally {
    await wire.close();
  }
}

describe('requests laid out for the prompt cache', () => {
  it('anthropic: tools, then the stable system block, then the summary; breakpoints on the last tool, the stable system block and the last message', async () => {
    const body = (await requestBody('anthropic')) as {
      system: { type: string; text: string; cache_control?: unknown }[];
      tools: { name: string; cache_control?: unknown }[];
      messages: { role: string; content: { type: string; text?: string; cache_control?: unknown }[] }[];
    };
    const ephemeral = { type: 'ephemeral' };
    expect(body.system).toHaveLength(2);
    expect(body.system[0]).toMatchObject({ type: 'text', cache_control: ephemeral });
    expect(body.system[0]!.text).toMatch(/^You are "Wire Agent"/);
    expect(body.system[0]!.text).not.toContain('Ada');
    expect(body.system[1]).toEqual({ type: 'text', text: SUMMARY });
    expect(body.tools.map((t) => [t.name, t.cache_control])).toEqual([
      ['GetWeather', undefined],
      ['GetOrder', undefined],
      ['SendEmail', undefined],
      ['LookupCustomer', ephemeral],
    ]);
    const blocks = body.messages.flatMap((m) => m.content);
    expect(blocks.filter((b) => b.cache_control)).toEqual([
      { type: 'text', text: 'And the weather in Paris?', cache_control: ephemeral },
    ]);
  });

  it.each(['openai-chat', 'openai'] as const)(
    '%s: the stable system prompt alone in the first message, the summary after it, and a cache key per agent',
    async (provider) => {
      const body = await requestBody(provider);
      expect(body.prompt_cache_key).toBe('agent:goal_wire');
      const sent = (provider === 'openai' ? body.input : body.messages) as { role: string; content: unknown }[];
      // gpt-5-mini, a reasoning model, takes instructions as the developer's.
      const role = provider === 'openai' ? 'developer' : 'system';
      expect(sent.slice(0, 2).map((m) => m.role)).toEqual([role, role]);
      expect(sent[0]!.content).toMatch(
        /^You are "Wire Agent"[\s\S]*Example conversation:\nuser: hi\nagent: Hello! How can I help\?$/,
      );
      expect(sent[1]!.content).toBe(SUMMARY);
      // Nothing of Anthropic's reaches OpenAI.
      expect(JSON.stringify(body)).not.toContain('cache_control');
    },
  );

  it('google: the stable system prompt, then the summary, as the system instruction', async () => {
    const body = (await requestBody('google')) as { systemInstruction: { parts: { text: string }[] } };
    expect(body.systemInstruction.parts.map((p) => p.text.split('\n')[0])).toEqual([
      'You are "Wire Agent", an agent working toward this goal:',
      'Summary of the conversation so far (older messages were condensed):',
    ]);
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });
});
