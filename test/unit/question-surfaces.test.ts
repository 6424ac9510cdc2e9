// A running tool's question and progress without a server: the CLI's reading of typed values and its lines, and the
// API's live events (question when it changes, the latest progress for a view that opens mid-call). The web chat's
// side is driven in Chromium (test/integration/web-questions.test.ts).
import type { AgentClient } from '../../client/agent-client';
import { parseFieldValue, contentFromPairs } from '../../client/question-answer';
import { formatQuestion } from '../../client/question-format';
import { formatProgress } from '../../client/tool-progress';
import { LiveFeeds, type LiveEvent } from '../../api/live-feed';
import { MemoryStreamBus } from '../../stream';
import type { ConversationFeed } from '../../core/conversation-types';
import type { ChatMessage } from '../../core/types';
import type { ToolQuestion } from '../../core/tool-questions';

const FORM: ToolQuestion = {
  id: 'q1',
  tool: 'asking__greet',
  server: 'asking',
  kind: 'form',
  message: 'What is your name?',
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 1 },
      title: { type: 'string', enum: ['Dr', 'Ms', 'Mr'], default: 'Dr' },
      hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
      age: { type: 'integer', minimum: 0 },
      ok: { type: 'boolean' },
      fish: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'f1', title: 'Tuna' },
            { const: 'f2', title: 'Salmon' },
          ],
        },
      },
    },
    required: ['name'],
  },
};
const field = (name: string) => FORM.schema!.properties[name]!;

describe('reading a form field typed in a terminal', () => {
  it('reads numbers, yes/no, a choice by value, label or number, and several comma-separated', () => {
    expect(parseFieldValue(field('age'), '42')).toEqual({ value: 42 });
    expect(parseFieldValue(field('age'), '4.5')).toEqual({ problem: 'a whole number is wanted, not 4.5' });
    expect(parseFieldValue(field('ok'), 'yes')).toEqual({ value: true });
    expect(parseFieldValue(field('ok'), 'maybe')).toEqual({ problem: 'yes or no is wanted, not "maybe"' });
    expect(parseFieldValue(field('title'), '2')).toEqual({ value: 'Ms' });
    expect(parseFieldValue(field('hero'), 'superman')).toEqual({ value: 'h1' });
    expect(parseFieldValue(field('fish'), 'Tuna, 2')).toEqual({ value: ['f1', 'f2'] });
    expect(parseFieldValue(field('fish'), 'Cod')).toEqual({ problem: 'Cod: not among f1, f2' });
  });

  it('builds agent answer --accept pairs into content, naming an unknown field', () => {
    expect(contentFromPairs(FORM, ['name=Ada Lovelace', 'age=36', 'fish=f2'])).toEqual({
      name: 'Ada Lovelace',
      age: 36,
      fish: ['f2'],
    });
    expect(() => contentFromPairs(FORM, ['nick=A'])).toThrow(/no field "nick" \(it has: name, title/);
    expect(() => contentFromPairs(FORM, ['name'])).toThrow(/name=value/);
  });
});

describe('a question and progress as terminal lines', () => {
  it('lists a form field by field, with the answer command', () => {
    expect(formatQuestion(FORM, 'c1').split('\n')).toEqual([
      '  name* (Name) [string, 1 to … characters]',
      '  title [string, one of Dr | Ms | Mr, default Dr]',
      '  hero [string, one of h1 (Superman)]',
      '  age [integer, 0 to …]',
      '  ok [boolean]',
      '  fish [any of f1 (Tuna) | f2 (Salmon)]',
      '  question id: q1',
      '  answer: agent answer c1 --accept name=… --accept title=… --accept hero=… --accept age=… --accept ok=… --accept fish=… · --decline · --cancel',
    ]);
  });

  it('shows a sampling prompt and progress with its share, or a log line with its level', () => {
    const sampling: ToolQuestion = {
      ...FORM,
      kind: 'sampling',
      schema: undefined,
      sampling: { prompt: 'user: A poem', systemPrompt: 'Be brief', maxTokens: 60 },
    };
    expect(formatQuestion(sampling)).toBe(
      '  asking wants our model to answer (at most 60 tokens):\n    system: Be brief\n    user: A poem\n  question id: q1',
    );
    expect(formatProgress({ tool: 't', progress: 1, total: 4 })).toBe('  … t: 1/4 (25%)');
    expect(formatProgress({ tool: 't', progress: 3, message: 'step 3' })).toBe('  … t: 3 step 3');
    expect(formatProgress({ tool: 't', level: 'info', message: 'hello' })).toBe('  … t [info] hello');
  });
});

describe('LiveFeeds: question and tool_progress events', () => {
  it('says when the question opens and goes, and gives a late view the latest progress until the result', async () => {
    const messages: ChatMessage[] = [{ kind: 'user', text: 'greet me', promptId: 1 }];
    let question: ToolQuestion | null = null;
    const agents = {
      async feed(_id: string, since: number): Promise<ConversationFeed> {
        return {
          goalId: 'g',
          owner: null,
          state: 'working',
          first: 0,
          next: messages.length,
          messages: messages.map((message, seq) => ({ seq, message })).filter((m) => m.seq >= since),
          pendingApproval: null,
          question,
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        };
      },
    } as unknown as AgentClient;
    const bus = new MemoryStreamBus();
    const feeds = new LiveFeeds(agents, bus, { busyMs: 10_000, idleMs: 10_000 });
    const look = async () => {
      feeds.poke('c1');
      await new Promise((r) => setTimeout(r, 20));
    };
    const first: LiveEvent[] = [];
    const open = (events: LiveEvent[]) =>
      feeds.open(
        'c1',
        { next: 0, attempt: '', offset: 0 },
        (e) => events.push(e),
        () => undefined,
      );
    const closeFirst = await open(first);
    expect(first).toContainEqual({ event: 'question', data: { question: null } });

    bus.publish('c1', { kind: 'progress', attempt: 'r/5/1', tool: 'everything__op', progress: 1, total: 4 });
    expect(first.at(-1)).toEqual({
      event: 'tool_progress',
      data: { attempt: 'r/5/1', tool: 'everything__op', progress: 1, total: 4 },
    });
    const late: LiveEvent[] = [];
    const closeLate = await open(late);
    expect(late.filter((e) => e.event === 'tool_progress')).toHaveLength(1);

    question = FORM;
    await look();
    expect(first.filter((e) => e.event === 'question').at(-1)).toEqual({ event: 'question', data: { question: FORM } });
    await look(); // unchanged: said once
    expect(first.filter((e) => e.event === 'question')).toHaveLength(2);

    question = null;
    messages.push({
      kind: 'tool',
      call: { id: 't1', tool: 'everything__op', args: {} },
      outcome: { status: 'ok', result: 'done' },
    });
    await look();
    expect(first.filter((e) => e.event === 'question').at(-1)).toEqual({ event: 'question', data: { question: null } });
    const after: LiveEvent[] = [];
    const closeAfter = await open(after);
    expect(after.filter((e) => e.event === 'tool_progress')).toEqual([]);
    for (const close of [closeFirst, closeLate, closeAfter]) close();
    feeds.close();
  });
});
