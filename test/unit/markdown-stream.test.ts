// What of a streaming reply the web chat renders: never a table without its delimiter row, never an open code fence
// that swallows the rest, and everything else as it came.
import { steadyMarkdown } from '../../core/markdown-stream';

const REPLY = 'Here:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n```ts\nconst x = 1;\n```\nDone.';

describe('steadyMarkdown', () => {
  it('keeps a table back until its header and delimiter rows are whole, then adds whole rows', () => {
    expect(steadyMarkdown('Here:\n\n| a | b')).toBe('Here:\n');
    expect(steadyMarkdown('Here:\n\n| a | b |\n')).toBe('Here:\n');
    expect(steadyMarkdown('Here:\n\n| a | b |\n|---|--')).toBe('Here:\n');
    expect(steadyMarkdown('Here:\n\n| a | b |\n|---|---|\n| 1 |')).toBe('Here:\n\n| a | b |\n|---|---|');
    expect(steadyMarkdown('Here:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n')).toBe(
      'Here:\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
  });

  it('closes an open code fence for now, and holds back a line that may open or close one', () => {
    expect(steadyMarkdown('Look:\n```ts\nconst x')).toBe('Look:\n```ts\nconst x\n```');
    expect(steadyMarkdown('Look:\n```ts\nconst x = 1;\n`')).toBe('Look:\n```ts\nconst x = 1;\n```');
    expect(steadyMarkdown('Look:\n``')).toBe('Look:');
    expect(steadyMarkdown('Look:\n~~~\nplain\n')).toBe('Look:\n~~~\nplain\n~~~');
    // A longer fence is closed only by one at least as long.
    expect(steadyMarkdown('````\n```\nstill code\n')).toBe('````\n```\nstill code\n````');
  });

  it('passes prose as it came, and the whole reply unchanged', () => {
    expect(steadyMarkdown('Plain words, **half bold')).toBe('Plain words, **half bold');
    expect(steadyMarkdown(REPLY)).toBe(REPLY);
    // Every prefix renders as a prefix of the reply, plus at most a fence closing a code block for now.
    for (let i = 0; i <= REPLY.length; i++) {
      const shown = steadyMarkdown(REPLY.slice(0, i)).replace(/\n```$/, '');
      expect(REPLY.startsWith(shown)).toBe(true);
    }
  });
});
