// What an MCP tool's answer becomes: structured content checked against the outputSchema, typed content parts for
// images, audio, resource links, embedded resources and annotations, and media too large for history described.
import { outcomeOf } from '../../endpoints/mcp/tool-result';
import { capOutcome } from '../../activities/limits';
import { contentAsText } from '../../core/tool-content';

const PNG = Buffer.from('a tiny png, as far as this test knows').toString('base64');
const weather = {
  name: 'get-structured-content',
  outputSchema: {
    type: 'object' as const,
    properties: { temperature: { type: 'number' }, conditions: { type: 'string' } },
    required: ['temperature', 'conditions'],
  },
};

describe('outcomeOf', () => {
  it('keeps a plain text answer as it always was: parsed JSON or the text, no content parts', () => {
    expect(outcomeOf({ content: [{ type: 'text', text: '{"a":1}' }] })).toEqual({ status: 'ok', result: { a: 1 } });
    expect(outcomeOf({ content: [{ type: 'text', text: 'hi' }] })).toEqual({ status: 'ok', result: 'hi' });
    expect(outcomeOf({ content: [{ type: 'text', text: 'no such city' }], isError: true })).toEqual({
      status: 'tool_error',
      error: 'no such city',
    });
  });

  it('takes structured content that matches the outputSchema as the result', () => {
    const structured = { temperature: 36, conditions: 'Light rain' };
    const answer = {
      content: [{ type: 'text' as const, text: JSON.stringify(structured) }],
      structuredContent: structured,
    };
    expect(outcomeOf(answer, weather)).toEqual({ status: 'ok', result: structured });
    // Without the definition (a caller that does not pass it) it is taken unchecked, as before.
    expect(outcomeOf(answer)).toEqual({ status: 'ok', result: structured });
  });

  it('makes structured content that breaks the outputSchema, or none when one is declared, a clear tool error', () => {
    const bad = outcomeOf({ content: [], structuredContent: { temperature: 'hot' } }, weather);
    expect(bad).toEqual({
      status: 'tool_error',
      error: expect.stringMatching(
        /^The tool "get-structured-content" answered structured content that does not match its outputSchema: .*(temperature|conditions)/,
      ),
    });
    expect(outcomeOf({ content: [{ type: 'text', text: '36 degrees' }] }, weather)).toEqual({
      status: 'tool_error',
      error: 'The tool "get-structured-content" declares an outputSchema but answered no structured content.',
    });
  });

  it('keeps images, resource links, embedded resources and annotations as typed parts, in order', () => {
    const outcome = outcomeOf({
      content: [
        { type: 'text', text: "Here's the image:", annotations: { audience: ['user'], priority: 0.7 } },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'resource_link', uri: 'demo://resource/2', name: 'Text Resource 2', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'demo://text/1', mimeType: 'text/plain', text: 'Resource 1 says hi' } },
        // Base64 of text is read as text; real binary stays bytes.
        {
          type: 'resource',
          resource: { uri: 'demo://blob/3', mimeType: 'text/plain', blob: Buffer.from('blob text').toString('base64') },
        },
        { type: 'resource', resource: { uri: 'demo://bin/4', mimeType: 'application/zip', blob: PNG } },
        { type: 'audio', data: PNG, mimeType: 'audio/wav' },
      ],
    });
    expect(outcome).toEqual({
      status: 'ok',
      result: expect.any(String),
      content: [
        { type: 'text', text: "Here's the image:", annotations: { audience: ['user'], priority: 0.7 } },
        { type: 'image', mimeType: 'image/png', data: PNG, bytes: 37 },
        { type: 'resource_link', uri: 'demo://resource/2', name: 'Text Resource 2', mimeType: 'text/plain' },
        { type: 'resource', uri: 'demo://text/1', mimeType: 'text/plain', text: 'Resource 1 says hi' },
        { type: 'resource', uri: 'demo://blob/3', mimeType: 'text/plain', text: 'blob text' },
        { type: 'resource', uri: 'demo://bin/4', mimeType: 'application/zip', data: PNG, bytes: 37 },
        { type: 'audio', mimeType: 'audio/wav', data: PNG, bytes: 37 },
      ],
    });
    // The result keeps the answer in words for readers that know nothing of parts.
    expect(outcome.status === 'ok' && outcome.result).toBe(
      [
        "Here's the image:",
        '[image, image/png, 37 bytes]',
        '[resource link: Text Resource 2 <demo://resource/2> (text/plain)]',
        '[resource <demo://text/1> (text/plain)]\nResource 1 says hi',
        '[resource <demo://blob/3> (text/plain)]\nblob text',
        '[resource <demo://bin/4> (application/zip), binary, 37 bytes]',
        '[audio, audio/wav, 37 bytes]',
      ].join('\n'),
    );
  });

  it('keeps structured content as the result and the other parts beside it', () => {
    const outcome = outcomeOf({
      content: [
        { type: 'text', text: '{"temperature":1,"conditions":"x"}' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
      structuredContent: { temperature: 1, conditions: 'x' },
    });
    expect(outcome).toEqual({
      status: 'ok',
      result: { temperature: 1, conditions: 'x' },
      structured: true,
      content: [{ type: 'image', mimeType: 'image/png', data: PNG, bytes: 37 }],
    });
  });

  it('describes media past the history budget instead of embedding it', () => {
    const big = Buffer.alloc(50_000, 7).toString('base64');
    const outcome = outcomeOf(
      {
        content: [
          { type: 'image', data: big, mimeType: 'image/png' },
          { type: 'image', data: big, mimeType: 'image/jpeg' },
        ],
      },
      undefined,
      { mediaBytesKept: 80_000 },
    );
    expect(outcome.status === 'ok' && outcome.content).toEqual([
      { type: 'image', mimeType: 'image/png', data: big, bytes: 50_000 },
      { type: 'image', mimeType: 'image/jpeg', bytes: 50_000 },
    ]);
    expect(contentAsText(outcome.status === 'ok' ? outcome.content! : [])).toContain(
      '[image, image/jpeg, 48.8 KB, not kept: too large]',
    );
  });

  it('caps the parts’ text with the tool result cap, keeping the parts', () => {
    const outcome = outcomeOf({
      content: [
        { type: 'text', text: 'x'.repeat(300) },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ],
    });
    const capped = capOutcome(outcome, 100);
    expect(capped.status === 'ok' && capped.content?.[0]).toEqual({
      type: 'text',
      text: expect.stringMatching(/^x{100}\n\[… cut: this text was 300 characters; the first 100 are kept/),
    });
    expect(capped.status === 'ok' && capped.content?.[1]).toMatchObject({ type: 'image', data: PNG });
  });
});
