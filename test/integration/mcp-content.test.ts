// The MCP reference server (server-everything, real, over stdio and over Streamable HTTP) in conversations on a real
// dev server and worker: structured content, resource links, an embedded resource, an image and an annotated message
// each come back as typed parts, and reach the model in the form it takes (the scripted model's recorded prompts; the
// wire body an openai-compatible provider sends).
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { createModel } from '../../activities/llm/model';
import type { ChatMessage, ToolContent } from '../../core/types';
import { endChatSignal } from '../../core/messages';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { everythingTestbed, type EverythingTestbed } from '../helpers/everything-testbed';
import {
  completion,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  toolResults,
} from '../../testkit/fake-chat-completions';
import { startWorker, testSettings } from '../../testkit/temporal';
import { startFakeAnthropic, type AnthropicRequest } from '../../testkit/fake-anthropic';

/** What the user says, the tool it makes the model call, and with what. */
const ASKS = [
  ['weather', 'get-structured-content', { location: 'Chicago' }],
  ['links', 'get-resource-links', { count: 2 }],
  ['reference', 'get-resource-reference', { resourceType: 'Text', resourceId: 1 }],
  ['image', 'get-tiny-image', {}],
  ['annotated', 'get-annotated-message', { messageType: 'error', includeImage: true }],
] as const;
const SERVERS = ['ev', 'evh'] as const;

const script: ScriptInput = {
  rules: [
    ...SERVERS.flatMap((s) =>
      ASKS.map(([word, tool, args]) => ({
        user: `^${s} ${word}$`,
        reply: { toolCalls: [{ tool: `${s}__${tool}`, args: { ...args } }] },
      })),
    ),
    ...SERVERS.map((s) => ({
      afterTool: `${s}__get-structured-content`,
      outcome: 'ok' as const,
      reply: { text: 'It is {{result.temperature}} degrees: {{result.conditions}}.' },
    })),
    { outcome: 'ok', reply: { text: 'Done.' } },
    { outcome: 'tool_error', reply: { text: 'Failed: {{outcome.error}}' } },
  ],
  fallback: { text: 'Noted.' },
};

const content = (messages: ChatMessage[], tool: string): ToolContent[] => {
  const outcome = toolOutcomes(messages, tool)[0]?.outcome;
  if (outcome?.status !== 'ok') throw new Error(`${tool}: ${JSON.stringify(outcome)}`);
  return outcome.content ?? [];
};

describe('server-everything through conversations: what its tools answer', () => {
  let bed: EverythingTestbed;
  beforeAll(async () => {
    bed = await everythingTestbed(script);
  });
  afterAll(async () => {
    await bed?.close();
  });

  it.each(SERVERS)('keeps each kind of content as typed parts and tells the model in words (%s)', async (s) => {
    const { handle } = await startConversation(bed.env.client, bed.taskQueue, {
      goalId: 'goal_general',
    });
    const replies: string[] = [];
    for (const [word] of ASKS) replies.push((await say(handle, `${s} ${word}`)).reply);
    const messages = await history(handle);
    await handle.signal(endChatSignal);

    // Structured content, checked against the tool's outputSchema, is the result itself.
    expect(replies[0]).toBe('It is 36 degrees: Light rain / drizzle.');
    expect(toolOutcomes(messages, `${s}__get-structured-content`)[0]?.outcome).toEqual({
      status: 'ok',
      result: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
    });
    expect(replies.slice(1)).toEqual(['Done.', 'Done.', 'Done.', 'Done.']);

    expect(content(messages, `${s}__get-resource-links`)).toEqual([
      { type: 'text', text: 'Here are 2 resource links to resources available in this server:' },
      expect.objectContaining({
        type: 'resource_link',
        uri: 'demo://resource/dynamic/blob/1',
        name: 'Blob Resource 1',
      }),
      expect.objectContaining({
        type: 'resource_link',
        uri: 'demo://resource/dynamic/text/2',
        mimeType: 'text/plain',
      }),
    ]);
    expect(content(messages, `${s}__get-resource-reference`)[1]).toEqual({
      type: 'resource',
      uri: 'demo://resource/dynamic/text/1',
      mimeType: 'text/plain',
      text: expect.stringMatching(/^Resource 1: This is a plaintext resource created at /),
    });
    const image = content(messages, `${s}__get-tiny-image`);
    expect(image[1]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: expect.stringMatching(/^iVBORw0KGgo/),
      bytes: expect.any(Number),
    });
    expect(content(messages, `${s}__get-annotated-message`)).toEqual([
      { type: 'text', text: 'Error: Operation failed', annotations: { priority: 1, audience: ['user', 'assistant'] } },
      expect.objectContaining({ type: 'image', annotations: { priority: 0.5, audience: ['user'] } }),
    ]);

    // The scripted provider takes no media: it was told of the image in words, never sent its bytes.
    const [shown] = bed.model.toolResults(`${s}__get-tiny-image`);
    expect(shown?.output).toEqual({
      type: 'json',
      value: {
        status: 'ok',
        content: expect.stringMatching(
          /^Here's the image you requested:\n\[image, image\/png, [\d.]+ KB\]\nThe image above is the MCP logo\.$/,
        ),
      },
    });
    expect(JSON.stringify(bed.model.prompts)).not.toContain('iVBORw0KGgo');
    const [annotated] = bed.model.toolResults(`${s}__get-annotated-message`);
    expect(JSON.stringify(annotated?.output)).toMatch(/\[image, image\/png, [\d.]+ KB, shown to the user\]/);
  });

  it('describes the image in words on the wire to an OpenAI-compatible provider (a local Chat Completions server)', async () => {
    const fake = await startFakeChatCompletions((body) => {
      if (isAfterTool(body)) return completion({ text: 'Seen.' });
      if (lastUserText(body).includes('image'))
        return completion({ toolCalls: [{ name: 'ev__get-tiny-image', args: {} }] });
      return completion({ text: 'Hello.' });
    });
    const settings = testSettings({
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: bed.registry,
    });
    const wired = await startWorker(bed.env, {
      model: createModel({ model: 'openai-compatible:test', baseUrl: fake.baseUrl }),
      settings,
    });
    try {
      const { handle } = await startConversation(bed.env.client, settings.taskQueue, { goalId: 'goal_general' });
      expect((await say(handle, 'show me the image')).reply).toBe('Seen.');
      await handle.signal(endChatSignal);
      const sent = toolResults(fake.requests.at(-1)!.body);
      expect(JSON.parse(sent[0]!.content)).toEqual({
        status: 'ok',
        content: expect.stringMatching(/^Here's the image you requested:\n\[image, image\/png, [\d.]+ KB\]\n/),
      });
      expect(fake.requests.at(-1)!.rawBody).not.toContain('iVBORw0KGgo');
    } finally {
      await wired.stop();
      await fake.close();
    }
  });

  it('sends the image itself, as an image block, to a provider that takes media (Anthropic, on the wire)', async () => {
    const blocks = (body: AnthropicRequest) => {
      const last = body.messages.at(-1)!;
      return typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
    };
    const fake = await startFakeAnthropic((body) => {
      if (blocks(body).some((b) => b.type === 'tool_result')) return { text: 'Seen.' };
      if (JSON.stringify(blocks(body)).includes('show me the image'))
        return { toolCalls: [{ name: 'ev__get-tiny-image', input: {} }] };
      return { text: 'Hello.' };
    });
    const settings = testSettings({
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: bed.registry,
    });
    const wired = await startWorker(bed.env, {
      model: createModel({ model: 'anthropic:claude-test', key: 'k', baseUrl: fake.baseUrl }),
      settings,
    });
    try {
      const { handle } = await startConversation(bed.env.client, settings.taskQueue, { goalId: 'goal_general' });
      expect((await say(handle, 'show me the image')).reply).toBe('Seen.');
      await handle.signal(endChatSignal);
      const result = blocks(fake.requests.at(-1)!).find((b) => b.type === 'tool_result')!;
      expect(result.content).toEqual([
        { type: 'text', text: '{"status":"ok"}' },
        { type: 'text', text: "Here's the image you requested:" },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
        },
        { type: 'text', text: 'The image above is the MCP logo.' },
      ]);
    } finally {
      await wired.stop();
      await fake.close();
    }
  });
});
