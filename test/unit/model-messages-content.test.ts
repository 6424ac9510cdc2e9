// A tool outcome with content parts reaches each provider in the form it takes: image data for OpenAI's Responses
// API and Anthropic, words for Chat Completions providers (which would send the base64 as text). Checked on the
// wire: the real provider packages build each request, a fetch that answers nothing records it.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText } from 'ai';
import { takesMediaInToolResults, toModelMessages } from '../../activities/llm/model-messages';
import type { ChatMessage } from '../../core/types';
import { ScriptedModel } from '../../activities/llm/scripted-model';
import { renderLine } from '../../activities/llm/prompts';
import { formatHistory } from '../../client/terminal-format';

const PNG = Buffer.from('pretend png bytes').toString('base64');
const call = { id: 'call_1', tool: 'everything__get-tiny-image', args: {} };
const transcript: ChatMessage[] = [
  { kind: 'user', text: 'show me the image', promptId: 1 },
  { kind: 'agent', text: '', toolCalls: [call] },
  {
    kind: 'tool',
    call,
    outcome: {
      status: 'ok',
      result: "Here's the image you requested:\n[image, image/png, 17 bytes]",
      content: [
        { type: 'text', text: "Here's the image you requested:" },
        { type: 'image', mimeType: 'image/png', data: PNG, bytes: 17 },
        { type: 'resource_link', uri: 'demo://resource/2', name: 'Text Resource 2' },
      ],
    },
  },
];

/** A fetch that records each request's JSON body and answers 400: the call fails, the request is kept. */
const recorder = () => {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: unknown, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return new Response(JSON.stringify({ error: { message: 'recorded' } }), { status: 400 });
  };
  return { bodies, fetch: fetch as typeof globalThis.fetch };
};

describe('tool results with content parts, per provider', () => {
  it('keeps an outcome without parts as the JSON it always was', () => {
    const plain: ChatMessage = { kind: 'tool', call, outcome: { status: 'ok', result: { a: 1 } } };
    expect(toModelMessages([plain], { media: true })[0]).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool-result', output: { type: 'json', value: { status: 'ok', result: { a: 1 } } } }],
    });
  });

  it('knows which providers take images in tool results', () => {
    expect(takesMediaInToolResults(createOpenAI({ apiKey: 'k' })('gpt-4o'))).toBe(true);
    expect(takesMediaInToolResults(createOpenAI({ apiKey: 'k' }).chat('gpt-4o'))).toBe(false);
    expect(takesMediaInToolResults(createAnthropic({ apiKey: 'k' })('claude-sonnet-4-5'))).toBe(true);
    expect(
      takesMediaInToolResults(createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:1/v1' })('llama')),
    ).toBe(false);
    expect(takesMediaInToolResults(new ScriptedModel({ rules: [] }))).toBe(false);
  });

  it('sends the image as input_image to the OpenAI Responses API', async () => {
    const { bodies, fetch } = recorder();
    await generateText({
      model: createOpenAI({ apiKey: 'k', fetch })('gpt-4o'),
      maxRetries: 0,
      messages: toModelMessages(transcript, { media: true }),
    }).catch(() => undefined);
    const output = (bodies[0]!.input as { type: string; output?: unknown }[]).find(
      (i) => i.type === 'function_call_output',
    )!.output;
    expect(output).toEqual([
      { type: 'input_text', text: '{"status":"ok"}' },
      { type: 'input_text', text: "Here's the image you requested:" },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}` },
      { type: 'input_text', text: '[resource link: Text Resource 2 <demo://resource/2>]' },
    ]);
  });

  it('sends the image as an image block in Anthropic’s tool_result', async () => {
    const { bodies, fetch } = recorder();
    await generateText({
      model: createAnthropic({ apiKey: 'k', fetch })('claude-sonnet-4-5'),
      maxRetries: 0,
      messages: toModelMessages(transcript, { media: true }),
    }).catch(() => undefined);
    const messages = bodies[0]!.messages as { content: { type: string; content?: unknown }[] }[];
    const result = messages.flatMap((m) => m.content).find((c) => c.type === 'tool_result')!;
    expect(result.content).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG },
    });
  });

  it('describes the image in words to a Chat Completions provider, which would send base64 as text', async () => {
    const { bodies, fetch } = recorder();
    const model = createOpenAICompatible({ name: 'local', baseURL: 'http://127.0.0.1:1/v1', fetch })('llama');
    await generateText({
      model,
      maxRetries: 0,
      messages: toModelMessages(transcript, { media: takesMediaInToolResults(model) }),
    }).catch(() => undefined);
    const tool = (bodies[0]!.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!;
    expect(JSON.parse(tool.content)).toEqual({
      status: 'ok',
      content:
        "Here's the image you requested:\n[image, image/png, 17 bytes]\n[resource link: Text Resource 2 <demo://resource/2>]",
    });
    expect(tool.content).not.toContain(PNG);
  });

  it('sends structured content as the result, with the other parts after it', () => {
    const structured: ChatMessage = {
      kind: 'tool',
      call,
      outcome: {
        status: 'ok',
        result: { temperature: 36 },
        structured: true,
        content: [{ type: 'image', mimeType: 'image/png', bytes: 900_000 }],
      },
    };
    const [media] = toModelMessages([structured], { media: true });
    expect(media).toMatchObject({
      content: [
        {
          output: {
            type: 'content',
            value: [
              { type: 'text', text: '{"status":"ok","result":{"temperature":36}}' },
              // Too large to keep: described even where images are taken.
              { type: 'text', text: '[image, image/png, 878.9 KB, not kept: too large]' },
            ],
          },
        },
      ],
    });
    const [words] = toModelMessages([structured]);
    expect(words).toMatchObject({
      content: [
        {
          output: {
            type: 'json',
            value: {
              status: 'ok',
              result: { temperature: 36 },
              content: '[image, image/png, 878.9 KB, not kept: too large]',
            },
          },
        },
      ],
    });
  });

  it('puts the parts in words, never their bytes, in summaries and the terminal history', () => {
    const line = renderLine(transcript[2]!);
    expect(line).toContain('[image, image/png, 17 bytes]');
    expect(line).not.toContain(PNG);
    expect(formatHistory(transcript)).not.toContain(PNG);
  });
});
