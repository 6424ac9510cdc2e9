// The AG-UI translation of a conversation's live events (api/ag-ui/run-events.ts), driven without Temporal: words
// held until a feed read shows what came before them, a durable message ending the text its attempt streamed, a
// discarded attempt taken back with a snapshot of the thread, the state moving only with feed reads.
import { EventType, type Event as AgUiEvent, type Message } from '@ag-ui/core';
import { RunEvents } from '../../api/ag-ui/run-events';
import type { ConversationFeed } from '../../core/conversation-types';
import type { ChatMessage } from '../../core/types';

const feedOf = (messages: ChatMessage[], more: Partial<ConversationFeed> = {}): ConversationFeed => ({
  goalId: 'goal_hr_pto',
  owner: null,
  state: 'working',
  first: 0,
  next: messages.length,
  messages: messages.map((message, seq) => ({ seq, message })),
  pendingApproval: null,
  question: null,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  ...more,
});

const user: ChatMessage = { kind: 'user', text: 'balance for ada@example.com', promptId: 1 };
const call = { id: 'c1', tool: 'CurrentPTO', args: { email: 'ada@example.com' } };
const asks: ChatMessage = { kind: 'agent', text: '', toolCalls: [call] };
const result: ChatMessage = { kind: 'tool', call, outcome: { status: 'ok', result: { hoursLeft: 104 } } };
const reply: ChatMessage = { kind: 'agent', text: 'You have 104 hours of PTO left.', toolCalls: [] };
const token = (attempt: string, offset: number, text: string) =>
  ({ event: 'token', data: { attempt, offset, text } }) as const;
const types = (events: AgUiEvent[]) => events.map((e) => e.type);

describe('RunEvents', () => {
  const thread: Message[] = [{ id: 'u1', role: 'user', content: 'balance for ada@example.com' }];

  it('holds words until a feed read shows the tool result written before them, then streams them', () => {
    const events = new RunEvents('c', thread, feedOf([user]), 1);
    expect(events.live(token('a2', 0, 'You have '))).toEqual([]);
    expect(events.holding).toBe(true);
    const mark = events.mark();
    const read = events.feed(feedOf([user, asks, result]), mark);
    expect(types(read)).toEqual([
      EventType.TOOL_CALL_START,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_END,
      EventType.TOOL_CALL_RESULT,
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
    ]);
    expect(read[5]).toMatchObject({ delta: 'You have ' });
    expect(events.live(token('a2', 9, '104 hours'))).toEqual([
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'c/a2', delta: '104 hours' },
    ]);
    // The durable reply ends the streamed text with what the stream had not brought.
    const done = events.feed(feedOf([user, asks, result, reply], { state: 'waiting_for_user' }), events.mark());
    expect(done).toEqual([
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'c/a2', delta: ' of PTO left.' },
      { type: EventType.TEXT_MESSAGE_END, messageId: 'c/a2' },
      {
        type: EventType.STATE_DELTA,
        delta: [{ op: 'replace', path: '/conversation/state', value: 'waiting_for_user' }],
      },
    ]);
    expect(events.close()).toEqual([]);
  });

  it('a message the stream never brought is one whole text message; the same message twice is shown once', () => {
    const events = new RunEvents('c', thread, feedOf([user]), 1);
    const feed = feedOf([user, reply], { state: 'waiting_for_user' });
    expect(types(events.feed(feed, events.mark()))).toEqual([
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
      EventType.STATE_DELTA,
    ]);
    expect(events.live({ event: 'message', data: { seq: 1, message: reply } })).toEqual([]);
  });

  it('a discarded attempt that was shown is ended and taken back by a snapshot of the thread without it', () => {
    const events = new RunEvents('c', thread, feedOf([user]), 1);
    events.live(token('a1', 0, 'Half a'));
    events.feed(feedOf([user]), events.mark());
    const back = events.live({ event: 'discard', data: { attempt: 'a1' } });
    expect(back).toEqual([
      { type: EventType.TEXT_MESSAGE_END, messageId: 'c/a1' },
      { type: EventType.MESSAGES_SNAPSHOT, messages: thread },
    ]);
    // Its late words are not a new message; the retry's are.
    expect(events.live(token('a1', 6, ' sentence'))).toEqual([]);
    events.live(token('a1b', 0, 'Whole'));
    const whole: ChatMessage = { kind: 'agent', text: 'Whole reply.', toolCalls: [] };
    expect(types(events.feed(feedOf([user, whole]), events.mark()))).toEqual([
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
    ]);
    expect(events.close()).toEqual([]);
  });

  it('an attempt cancelled for an interrupting message is taken back, though its discard comes after the new reply', () => {
    const events = new RunEvents('c', thread, feedOf([user]), 1);
    events.live(token('a1', 0, 'Checking the 21st'));
    events.feed(feedOf([user]), events.mark());
    events.live(token('a2', 0, 'Booked the '));
    const second: ChatMessage = { kind: 'user', text: 'no, the 22nd', promptId: 2 };
    const booked: ChatMessage = { kind: 'agent', text: 'Booked the 22nd.', toolCalls: [] };
    const read = events.feed(feedOf([user, second, booked], { state: 'waiting_for_user' }), events.mark());
    // The new reply is the newest attempt's, not the older one's that its words do not begin with.
    expect(read.filter((e) => 'messageId' in e).map((e) => [e.type, (e as { messageId: string }).messageId])).toEqual([
      [EventType.TEXT_MESSAGE_START, 'c/a2'],
      [EventType.TEXT_MESSAGE_CONTENT, 'c/a2'],
      [EventType.TEXT_MESSAGE_CONTENT, 'c/a2'],
      [EventType.TEXT_MESSAGE_END, 'c/a2'],
    ]);
    // The run ends before the cancelled call's discard came: the thread is given back without its words.
    expect(events.close()).toEqual([
      {
        type: EventType.MESSAGES_SNAPSHOT,
        messages: [...thread, { id: 'c/a2', role: 'assistant', content: 'Booked the 22nd.' }],
      },
    ]);
  });
});

describe('RunEvents: a run that follows again after its stream dropped', () => {
  const thread = (...more: Message[]): Message[] => [
    { id: 'u1', role: 'user', content: 'balance for ada@example.com' },
    ...more,
  ];
  const mine: ChatMessage = { ...user, ref: 'u1' } as ChatMessage;

  it('sends the streamed words the client lacks, under the id it has them by', () => {
    const events = new RunEvents(
      'c',
      thread({ id: 'c/a1', role: 'assistant', content: 'You have ' }),
      feedOf([mine]),
      1,
    );
    events.live(token('a1', 0, 'You have 104'));
    expect(events.feed(feedOf([mine]), events.mark())).toEqual([
      { type: EventType.TEXT_MESSAGE_START, messageId: 'c/a1', role: 'assistant' },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'c/a1', delta: '104' },
    ]);
  });

  it('sends what it missed of a turn that went on, and nothing it holds', () => {
    const had = thread(
      {
        id: 'c/a1',
        role: 'assistant',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'CurrentPTO', arguments: '{}' } }],
      },
      { id: 'c#2', role: 'tool', toolCallId: 'c1', content: '{}' },
      { id: 'c/a2', role: 'assistant', content: 'You have 104' },
    );
    const events = new RunEvents('c', had, feedOf([mine]), 1);
    const read = events.feed(feedOf([mine, asks, result, reply], { state: 'waiting_for_user' }), events.mark());
    expect(read.filter((e) => e.type !== EventType.STATE_DELTA)).toEqual([
      { type: EventType.TEXT_MESSAGE_START, messageId: 'c/a2', role: 'assistant' },
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'c/a2', delta: ' hours of PTO left.' },
      { type: EventType.TEXT_MESSAGE_END, messageId: 'c/a2' },
    ]);
    // The whole turn, for a client that held none of it.
    const fresh = new RunEvents('c', thread(), feedOf([mine]), 1);
    expect(types(fresh.feed(feedOf([mine, asks, result, reply]), fresh.mark())).slice(0, 7)).toEqual([
      EventType.TOOL_CALL_START,
      EventType.TOOL_CALL_ARGS,
      EventType.TOOL_CALL_END,
      EventType.TOOL_CALL_RESULT,
      EventType.TEXT_MESSAGE_START,
      EventType.TEXT_MESSAGE_CONTENT,
      EventType.TEXT_MESSAGE_END,
    ]);
  });
});
