// Running hooks: in order, each seeing the rewrite before it; the first block, throw, hang or nonsense answer stops
// what it guards (fail closed) with the hook named; and the two shipped examples' rules.
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HookRunner, type LoadedHook } from '../../activities/hooks/hook-runner';
import { afterToolCall, beforeToolCall } from '../../activities/hooks/tool-hooks';
import { heldForHooks, screenPrompt } from '../../activities/hooks/model-hooks';
import { isoDay } from '../../core/days';
import { defineHook, hookLine, hookReply, hookToolError, type Hook } from '../../core/hooks';
import pii, { redact } from '../../hooks/pii-redaction';
import topics, { DEFAULT_TOPICS, parseTopics } from '../../hooks/topic-guardrail';

const runner = (hooks: Hook[], timeoutMs?: number) =>
  new HookRunner(
    hooks.map((hook): LoadedHook => ({ hook, file: 'code', config: hook.configure?.({}) })),
    timeoutMs,
  );

const upper = defineHook({
  name: 'upper',
  on: 'userMessage',
  run: ({ text }) => ({ rewrite: { text: text.toUpperCase() }, note: 'shouted' }),
});

describe('running hooks', () => {
  it('passes what no hook changes, records nothing, and runs rewrites in order', async () => {
    const seen: string[] = [];
    const spy = defineHook({ name: 'spy', on: 'userMessage', run: ({ text }) => void seen.push(text) });
    const run = await runner([upper, spy]).run('userMessage', { text: 'hi' });
    expect(run).toEqual({
      input: { text: 'HI' },
      decisions: [{ hook: 'upper', point: 'userMessage', action: 'rewrite', note: 'shouted' }],
    });
    expect(seen).toEqual(['HI']);
    expect(await runner([spy]).run('userMessage', { text: 'x' })).toEqual({ input: { text: 'x' }, decisions: [] });
  });

  it('stops at a block: the hooks after it do not run', async () => {
    const later = jest.fn();
    const stop = defineHook({ name: 'stop', on: 'beforeToolCall', run: () => ({ block: 'not today' }) });
    const after = defineHook({ name: 'after', on: 'beforeToolCall', run: later });
    const run = await runner([stop, after]).run('beforeToolCall', { tool: 'Book', args: {} }, { tool: 'Book' });
    expect(run.stopped).toEqual({
      hook: 'stop',
      point: 'beforeToolCall',
      action: 'block',
      note: 'not today',
      tool: 'Book',
    });
    expect(later).not.toHaveBeenCalled();
  });

  it('fails closed, naming the hook, when it throws, hangs, or answers what is no answer', async () => {
    const thrower = defineHook({
      name: 'thrower',
      on: 'userMessage',
      run: () => {
        throw new Error('classifier down');
      },
    });
    expect((await runner([thrower]).run('userMessage', { text: 'x' })).stopped).toEqual({
      hook: 'thrower',
      point: 'userMessage',
      action: 'failed',
      note: 'it threw: classifier down',
    });
    const hang = defineHook({ name: 'hang', on: 'userMessage', run: () => new Promise<undefined>(() => undefined) });
    const started = Date.now();
    expect((await runner([hang], 100).run('userMessage', { text: 'x' })).stopped?.note).toBe(
      'it did not answer within 0.1 s',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    const nonsense = defineHook({ name: 'odd', on: 'userMessage', run: () => 'yes' as never });
    expect((await runner([nonsense]).run('userMessage', { text: 'x' })).stopped?.note).toBe(
      'it answered "yes", which is not a pass, a rewrite with a note, or a block with a reason',
    );
    // A rewrite of the wrong shape for its point: an outcome must have a status.
    const badOutcome = defineHook({
      name: 'bad',
      on: 'afterToolCall',
      run: () => ({ rewrite: { outcome: { result: 1 } as never }, note: 'n' }),
    });
    const run = await runner([badOutcome]).run('afterToolCall', {
      tool: 't',
      args: {},
      outcome: { status: 'ok', result: 1 },
    });
    expect(run.stopped?.action).toBe('failed');
    // A rewrite needs a note; a block needs a reason.
    const silent = defineHook({
      name: 'silent',
      on: 'userMessage',
      run: () => ({ rewrite: { text: 'y' }, note: ' ' }),
    });
    expect((await runner([silent]).run('userMessage', { text: 'x' })).stopped?.action).toBe('failed');
  });

  it('tells the model a blocked tool call was not made, and withholds a result a hook stopped', async () => {
    const no = defineHook({
      name: 'no-refunds',
      on: ['beforeToolCall', 'afterToolCall'],
      run: () => ({ block: 'refunds need a person' }),
    });
    const before = await beforeToolCall(runner([no]), { tool: 'Refund' }, { amount: 5 });
    expect(before.stopped).toEqual({
      status: 'tool_error',
      error: 'The call was not made: the hook "no-refunds" blocked it (refunds need a person).',
      hooks: [
        { hook: 'no-refunds', point: 'beforeToolCall', action: 'block', note: 'refunds need a person', tool: 'Refund' },
      ],
    });
    const after = await afterToolCall(runner([no]), { tool: 'Refund' }, {}, { status: 'ok', result: 'done' });
    expect(after.outcome).toEqual({
      status: 'tool_error',
      error: 'The tool\'s result was withheld: the hook "no-refunds" blocked it (refunds need a person).',
    });
    // No hooks at a point: the call goes as it came, nothing recorded.
    expect(await beforeToolCall(runner([upper]), { tool: 'Refund' }, { amount: 5 })).toEqual({
      args: { amount: 5 },
      decisions: [],
    });
  });

  it('says in the transcript what each decision did, and tells the user why a message or call was stopped', () => {
    const d = {
      hook: 'pii-redaction',
      point: 'userMessage',
      action: 'rewrite',
      note: '2 e-mail addresses redacted',
    } as const;
    expect(hookLine(d)).toBe('hook pii-redaction rewrote your message: 2 e-mail addresses redacted');
    expect(hookLine({ ...d, point: 'afterToolCall', tool: 'GetOrder' })).toBe(
      "hook pii-redaction rewrote GetOrder's result: 2 e-mail addresses redacted",
    );
    const failed = { hook: 'g', point: 'userMessage', action: 'failed', note: 'it threw: x' } as const;
    expect(hookReply(failed)).toBe('The hook "g" failed, so your message was not sent to the model: it threw: x');
    expect(hookToolError({ ...failed, point: 'beforeToolCall' })).toBe(
      'The call was not made: the hook "g" failed (it threw: x).',
    );
  });

  it('screens a prompt: null when nothing changed, the new text when rewritten, the reply when blocked', async () => {
    expect(await screenPrompt(runner([pii]), 'hello', 'g')).toBeNull();
    expect(await screenPrompt(undefined, 'a@b.co', 'g')).toBeNull();
    expect(await screenPrompt(runner([pii]), 'mail ada@example.com', 'g')).toEqual({
      text: 'mail [email]',
      decisions: [
        { hook: 'pii-redaction', point: 'userMessage', action: 'rewrite', note: '1 e-mail address redacted' },
      ],
    });
    const guard = new HookRunner([{ hook: topics as Hook, file: 'f', config: parseTopics(DEFAULT_TOPICS) }]);
    expect(await screenPrompt(guard, 'What dosage of ibuprofen?', 'g')).toMatchObject({
      blocked: "I can't help with medical advice here. Please ask about something else.",
    });
  });

  it('holds a reply being written from screens until the afterModelCall hooks settle it', () => {
    const written: string[] = [];
    const out = {
      write: (t: string) => written.push(t),
      done: () => written.push('<done>'),
      discard: () => written.push('<discard>'),
    };
    const after = defineHook({ name: 'a', on: 'afterModelCall', run: () => undefined });
    const held = heldForHooks(runner([after]), out);
    held.write('Hel');
    held.write('lo');
    held.done();
    expect(written).toEqual([]);
    held.settle(true);
    expect(written).toEqual(['Hel', 'lo', '<done>']);
    const dropped = heldForHooks(runner([after]), out);
    dropped.write('secret');
    dropped.settle(false);
    expect(written.slice(3)).toEqual(['<discard>']);
    // Without afterModelCall hooks the text goes out as it comes.
    const direct = heldForHooks(runner([upper]), out);
    direct.write('now');
    expect(written.at(-1)).toBe('now');
  });
});

describe('tracing', () => {
  it('runs each hook in a hook.run span that says what it decided', async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    const thrower = defineHook({
      name: 'thrower',
      on: 'userMessage',
      run: () => {
        throw new Error('x');
      },
    });
    await runner([upper, thrower]).run('userMessage', { text: 'hi' });
    expect(
      exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, status: s.status.code })),
    ).toEqual([
      {
        name: 'hook.run',
        attributes: { 'hook.name': 'upper', 'hook.point': 'userMessage', 'hook.action': 'rewrite' },
        status: SpanStatusCode.UNSET,
      },
      {
        name: 'hook.run',
        attributes: { 'hook.name': 'thrower', 'hook.point': 'userMessage', 'hook.action': 'failed' },
        status: SpanStatusCode.ERROR,
      },
    ]);
    trace.disable();
  });
});

describe('the pii-redaction example', () => {
  it.each([
    ['Write to ada.lovelace+work@mail.example.co.uk today', 'Write to [email] today', 1, 0],
    ['Call +1 (555) 123-4567 or 555-123-4567', 'Call [phone] or [phone]', 0, 2],
    ['London: 020 7946 0958, mobile 07700 900123.', 'London: [phone], mobile [phone].', 0, 2],
    ['+44 20 7946 0958', '[phone]', 0, 1],
  ])('redacts %p', (input, output, emails, phones) => {
    expect(redact(input)).toEqual({ text: output, emails, phones });
  });

  it.each([
    `Order ORD-1001 ships ${isoDay(new Date())}`,
    'tracking number 1Z999AA10123456784',
    'it costs 12345.67 or $1,234.56',
    'from 2019-2024, 10:30-11:45',
    'booking 15/01/2024 for 3 nights',
    'employee 1234567',
  ])('leaves %p alone', (input) => {
    expect(redact(input)).toEqual({ text: input, emails: 0, phones: 0 });
  });

  it('redacts every string of a tool result, and says how many', async () => {
    const run = await runner([pii]).run('afterToolCall', {
      tool: 'GetOrder',
      args: {},
      outcome: {
        status: 'ok',
        result: { id: 'ORD-1', email: 'ada@example.com', contacts: ['bob@example.org', 'tel 555-123-4567'] },
      },
    });
    expect(run.input.outcome).toEqual({
      status: 'ok',
      result: { id: 'ORD-1', email: '[email]', contacts: ['[email]', 'tel [phone]'] },
    });
    expect(run.decisions[0]!.note).toBe('2 e-mail addresses and 1 phone number redacted');
  });
});

describe('the topic-guardrail example', () => {
  const topicOf = (setting: string, text: string) => parseTopics(setting).find((t) => t.words.test(text))?.name;

  it('matches whole words in any case, and words ending in * as prefixes', () => {
    expect(topicOf(DEFAULT_TOPICS, 'Can you DIAGNOSE my rash?')).toBe('medical advice');
    expect(topicOf(DEFAULT_TOPICS, 'I want to sue my landlord')).toBe('legal advice');
    expect(topicOf(DEFAULT_TOPICS, 'the issue is undiagnosed, ask Sue')).toBe('legal advice'); // sue, not diagnos*
    expect(topicOf(DEFAULT_TOPICS, 'How many days of PTO do I have?')).toBeUndefined();
    expect(topicOf('politics: election*, senator; crypto', 'Buy CRYPTO now')).toBe('crypto');
    expect(topicOf('politics: election*, senator; crypto', 'the elections')).toBe('politics');
    expect(topicOf('travel advice: visa on arrival', 'is there a visa  on arrival?')).toBe('travel advice');
  });
});
