// How resources and prompts enter a conversation: a resource attached after the user's words (and told apart again
// by views), a prompt's messages as the opening a conversation carries in, and the CLI's way of naming them.
import { openingState, withAttachment, type ResourceRead } from '../../core/mcp-features';
import { splitAttachment } from '../../core/attachment';
import { MAX_PROMPT_CHARS } from '../../core/messages';
import { formatEndpointFeatures, promptRef } from '../../client/endpoint-features-format';

const read = (text: string): ResourceRead => ({
  endpoint: 'docs',
  uri: 'file:///notes.md',
  contents: [{ type: 'resource', uri: 'file:///notes.md', mimeType: 'text/markdown', text }],
});

describe('a resource attached to a message', () => {
  it('follows the words, marked, and views split them apart again', () => {
    const text = withAttachment('what does this say?', read('# Notes\nbuy milk'));
    expect(text).toBe(
      'what does this say?\n\n[attached resource file:///notes.md from docs]\n[resource <file:///notes.md> (text/markdown)]\n# Notes\nbuy milk',
    );
    expect(splitAttachment(text)).toEqual({
      text: 'what does this say?',
      attachment: {
        title: 'attached resource file:///notes.md from docs',
        body: '[resource <file:///notes.md> (text/markdown)]\n# Notes\nbuy milk',
      },
    });
    expect(splitAttachment('no attachment here')).toEqual({ text: 'no attachment here' });
  });

  it('is cut to fit the prompt limit, saying so, and names binary content by type and size', () => {
    const text = withAttachment('summarise', read('x'.repeat(40_000)));
    expect(text.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS);
    expect(text).toMatch(/\[… cut: the resource was 40,\d{3} characters; the first [\d,]+ are attached\.\]$/);
    const binary = withAttachment('look', {
      endpoint: 'files',
      uri: 'file:///a.zip',
      contents: [{ type: 'resource', uri: 'file:///a.zip', mimeType: 'application/zip', bytes: 2048 }],
    });
    expect(binary).toContain('[resource <file:///a.zip> (application/zip), binary, 2.0 KB, not kept: too large]');
  });
});

describe('a prompt opening a conversation', () => {
  it('carries its messages in, the last user message as the first prompt the agent answers', () => {
    const state = openingState({
      endpoint: 'ev',
      name: 'chat',
      messages: [
        { role: 'user', text: 'I plan a trip.' },
        { role: 'assistant', text: 'Where to?' },
        { role: 'user', text: 'Chicago, in March.' },
      ],
    });
    expect(state).toMatchObject({
      summary: '',
      messages: [
        { kind: 'note', text: 'Opened with the prompt "chat" of the MCP server "ev".' },
        { kind: 'user', text: 'I plan a trip.', promptId: 1 },
        { kind: 'agent', text: 'Where to?', toolCalls: [] },
      ],
      pendingPrompts: [{ id: 2, text: 'Chicago, in March.' }],
      promptSeq: 2,
      runs: 0,
    });
  });

  it('waits for the user when the prompt ends with the assistant’s words', () => {
    const state = openingState({ endpoint: 'ev', name: 'hello', messages: [{ role: 'assistant', text: 'Hi!' }] });
    expect(state.pendingPrompts).toEqual([]);
    expect(state.messages.at(-1)).toEqual({ kind: 'agent', text: 'Hi!', toolCalls: [] });
  });
});

describe('the CLI’s names for resources and prompts', () => {
  it('reads --prompt <endpoint>/<prompt> with --arg k=v, and refuses other shapes in words', () => {
    expect(promptRef('ev/args-prompt', ['city=Chicago', 'note=a=b'])).toEqual({
      endpoint: 'ev',
      name: 'args-prompt',
      args: { city: 'Chicago', note: 'a=b' },
    });
    expect(() => promptRef('args-prompt')).toThrow(/--prompt takes <endpoint>\/<prompt>/);
    expect(() => promptRef('ev/p', ['city'])).toThrow(/--arg takes name=value; got "city"/);
  });

  it('lists resources, templates and prompts, and says what a server does not offer', () => {
    const text = formatEndpointFeatures({
      endpoint: 'ev',
      resources: [{ uri: 'demo://a', name: 'a.md', mimeType: 'text/markdown', size: 2048, description: 'A doc' }],
      templates: [],
      prompts: [{ name: 'p', arguments: [{ name: 'city', required: true }, { name: 'state' }] }],
      unsupported: [],
    });
    expect(text).toBe(
      [
        'resources:',
        '  demo://a  a.md (text/markdown, 2.0 KB) — A doc',
        'resource templates:',
        '  (none)',
        'prompts:',
        '  ev/p city [state]',
      ].join('\n'),
    );
    const bare = formatEndpointFeatures({
      endpoint: 'fx',
      resources: [],
      templates: [],
      prompts: [],
      unsupported: ['resources', 'prompts'],
    });
    expect(bare).toContain('(fx offers no prompts)');
  });
});
