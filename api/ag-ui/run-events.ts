// A conversation's live events (api/live-feed.ts: the text being written, durable messages, state) as the AG-UI
// events of one run. The text an attempt writes is a text message as it streams; the durable agent message that
// attempt becomes ends it (its tool calls follow as TOOL_CALL_START/ARGS/END), and a tool's result is a
// TOOL_CALL_RESULT. A durable message is handled once, by its sequence number, whether it came from the live view or
// from a feed read. An attempt whose text is discarded (a model call retried after it began writing, or cancelled for
// a message that interrupted the turn, whose discard may come only after the run ends) cannot be taken back event by
// event: a MESSAGES_SNAPSHOT gives the client its thread without it. The state (STATE_DELTA) moves only
// with the run's own feed reads, one after another, so it never steps back to what an older poll of the view saw.
// A run that follows again (its stream dropped) is given the client's thread: what it holds is not sent twice, and a
// reply it holds the start of goes on under the same message id.
// Words reach us before the durable messages written before them (the stream bus is quicker than the view's polls):
// an attempt's text is held until a feed read that began after its first words, which holds every message before it
// (the workflow writes them before it asks the model), so a tool's result always comes before the words after it.
import { EventType, type Event as AgUiEvent, type Message } from '@ag-ui/core';
import type { ConversationFeed } from '../../core/conversation-types';
import type { LiveEvent, SeqMessage } from '../../core/live-events';
import { outcomeInWords } from '../../core/tool-content';
import { deltaOf, viewOf, type ConversationView } from './run-state';

type Assistant = Extract<Message, { role: 'assistant' }>;

interface Stream {
  id: string;
  attempt: string;
  text: string;
  /** How much of its text the client had before this run (a run that follows again after its stream dropped). */
  had: number;
  ended: boolean;
  /** Not shown yet: no feed read since it began has been handled. */
  held: boolean;
  /** Its place among the run's attempts. */
  born: number;
}

export class RunEvents {
  /** The next durable message not handled yet. */
  private next: number;
  /** Attempts whose text was streamed and no durable message has claimed yet, oldest first. */
  private streams: Stream[] = [];
  /** Attempts whose text message has ended: a late chunk of theirs is not a new message. */
  private readonly ended = new Set<string>();
  /** The messages this run added to the client's thread. */
  private readonly added: Message[] = [];
  /** Attempts seen so far. */
  private born = 0;
  private view: ConversationView;

  constructor(
    private readonly conversationId: string,
    /** The thread as the client sent it: a snapshot keeps it. */
    private readonly thread: Message[],
    /** The conversation as the run starts (read from its first message). */
    feed: ConversationFeed,
    from: number,
  ) {
    this.next = from;
    this.view = viewOf(conversationId, feed);
  }

  get current(): ConversationView {
    return this.view;
  }

  live(event: LiveEvent): AgUiEvent[] {
    switch (event.event) {
      case 'token':
        return this.token(event.data.attempt, event.data.offset, event.data.text);
      case 'discard':
        return this.discard(event.data.attempt);
      case 'message':
        return this.message(event.data);
      case 'tool_progress':
        return [{ type: EventType.CUSTOM, name: 'tool_progress', value: event.data }];
      default:
        return [];
    }
  }

  /** Whether text is held: a feed read will show it. */
  get holding(): boolean {
    return this.streams.some((s) => s.held);
  }

  /** Taken before a feed read: the attempts it will show the text of. */
  mark(): number {
    return this.born;
  }

  /**
   * What a feed read shows that the live view has not brought yet (messages, then the state as it is now), and the
   * text of the attempts that began before the read (`mark`).
   */
  feed(feed: ConversationFeed, mark: number): AgUiEvent[] {
    return [
      ...feed.messages.flatMap((m) => this.message(m)),
      ...this.release(mark),
      ...this.moveTo(viewOf(this.view.id, feed)),
    ];
  }

  /**
   * Ends the text message still open (a run ends with none open). The run's last feed read has handled every message,
   * so an attempt no message claimed was void (a model call cancelled for a message that interrupted the turn, whose
   * discard has not come yet): held, it is never shown; shown, a snapshot of the thread takes it back.
   */
  close(): AgUiEvent[] {
    const events = this.endOpen();
    const voided = this.streams.filter((s) => !s.held);
    this.streams = [];
    if (!voided.length) return events;
    for (const s of voided) this.ended.add(s.attempt);
    this.added.splice(0, this.added.length, ...this.added.filter((m) => !voided.some((s) => s.id === m.id)));
    return [...events, { type: EventType.MESSAGES_SNAPSHOT, messages: [...this.thread, ...this.added] }];
  }

  private endOpen(): AgUiEvent[] {
    return this.streams.filter((s) => !s.ended && !s.held).flatMap((s) => this.end(s));
  }

  /** Shows the text held of the attempts before `mark`, oldest first. */
  private release(mark: number): AgUiEvent[] {
    return this.streams
      .filter((s) => s.held && s.born < mark)
      .flatMap((s) => {
        s.held = false;
        // Text the client holds already (this run follows again) is not sent twice: its message goes on.
        const fresh = s.text.slice(s.had);
        const known = this.thread.find((m) => m.id === s.id);
        if (known) known.content = s.text;
        else this.added.push({ id: s.id, role: 'assistant', content: s.text });
        return [
          { type: EventType.TEXT_MESSAGE_START, messageId: s.id, role: 'assistant' } as const,
          ...(fresh ? [{ type: EventType.TEXT_MESSAGE_CONTENT, messageId: s.id, delta: fresh } as const] : []),
        ];
      });
  }

  private moveTo(next: ConversationView): AgUiEvent[] {
    const delta = deltaOf(this.view, next);
    this.view = next;
    return delta.length ? [{ type: EventType.STATE_DELTA, delta }] : [];
  }

  private token(attempt: string, offset: number, text: string): AgUiEvent[] {
    if (this.ended.has(attempt)) return [];
    const events: AgUiEvent[] = [];
    let stream = this.streams.find((s) => s.attempt === attempt);
    if (!stream) {
      // Model calls run one after another: a new attempt writing means the one before has written all it will.
      events.push(...this.endOpen());
      const id = `${this.conversationId}/${attempt}`;
      stream = {
        id,
        attempt,
        text: '',
        had: contentOf(this.thread.find((m) => m.id === id)).length,
        ended: false,
        held: true,
        born: this.born++,
      };
      this.streams.push(stream);
    }
    // A chunk that overlaps what was sent gives only its new part.
    const fresh = text.slice(Math.max(0, stream.text.length - offset));
    if (!fresh) return events;
    if (stream.held) stream.text += fresh;
    else events.push(...this.write(stream, fresh));
    return events;
  }

  /** Whether the client's thread holds this durable message already (a run that follows again after its stream
   * dropped): by its id, a tool result by its call, an agent message by its calls or, without any, its words. */
  private holds(id: string, m: SeqMessage['message']): boolean {
    if (this.thread.some((x) => x.id === id)) return true;
    if (m.kind === 'tool') return this.thread.some((x) => x.role === 'tool' && x.toolCallId === m.call.id);
    if (m.kind !== 'agent') return false;
    if (m.toolCalls.length)
      return this.clientTail().some((x) => m.toolCalls.every((c) => x.toolCalls?.some((t) => t.id === c.id)));
    return !!m.text && this.clientTail().some((x) => x.content === m.text);
  }

  /** The agent's message the client holds the start of (it lost the rest with its stream), if any. */
  private partOf(text: string): Assistant | undefined {
    return this.clientTail().find((x) => !x.toolCalls?.length && !!contentOf(x) && text.startsWith(contentOf(x)));
  }

  /** The agent's messages the client holds after its last user message: what a run that follows again may repeat. */
  private clientTail(): Assistant[] {
    const after = this.thread.length - [...this.thread].reverse().findIndex((x) => x.role === 'user');
    return this.thread
      .slice(after > this.thread.length ? 0 : after)
      .filter((x): x is Assistant => x.role === 'assistant');
  }

  private write(stream: Stream, delta: string): AgUiEvent[] {
    stream.text += delta;
    const added = this.added.find((m) => m.id === stream.id) as Assistant | undefined;
    if (added) added.content = stream.text;
    return [{ type: EventType.TEXT_MESSAGE_CONTENT, messageId: stream.id, delta }];
  }

  private end(stream: Stream): AgUiEvent[] {
    stream.ended = true;
    this.ended.add(stream.attempt);
    return [{ type: EventType.TEXT_MESSAGE_END, messageId: stream.id }];
  }

  private discard(attempt: string): AgUiEvent[] {
    const stream = this.streams.find((s) => s.attempt === attempt);
    this.ended.add(attempt);
    if (!stream) return [];
    this.streams = this.streams.filter((s) => s !== stream);
    if (stream.held) return []; // never shown
    const events = stream.ended ? [] : this.end(stream);
    const shown = this.added.findIndex((m) => m.id === stream.id);
    if (shown >= 0) this.added.splice(shown, 1);
    return [...events, { type: EventType.MESSAGES_SNAPSHOT, messages: [...this.thread, ...this.added] }];
  }

  private message({ seq, message: m }: SeqMessage): AgUiEvent[] {
    if (seq < this.next) return [];
    this.next = seq + 1;
    const id = `${this.conversationId}#${seq}`;
    if (this.holds(id, m)) return [];
    if (m.kind === 'tool') {
      const content = JSON.stringify(outcomeInWords(m.outcome));
      this.added.push({ id, role: 'tool', toolCallId: m.call.id, content });
      return [{ type: EventType.TOOL_CALL_RESULT, messageId: id, toolCallId: m.call.id, content, role: 'tool' }];
    }
    if (m.kind !== 'agent') return []; // the client has its user's words; notes are ours
    const events: AgUiEvent[] = [];
    // The attempt that wrote this text, if it was streamed: its text is this message's start (or all of it). The
    // newest such attempt: an older one may be a cancelled model call's (its discard still to come), and it stays
    // until its discard, or the run's end, takes it back.
    const at = m.text
      ? findLastIndex(this.streams, (s) => !!s.text && (m.text.startsWith(s.text) || s.text.startsWith(m.text)))
      : -1;
    let messageId = id;
    if (at >= 0) {
      const stream = this.streams[at]!;
      if (stream.held) events.push(...this.release(stream.born + 1));
      // Older attempts still open end as they are (model calls run one after another).
      events.push(...this.streams.slice(0, at).flatMap((s) => (s.ended || s.held ? [] : this.end(s))));
      this.streams.splice(at, 1);
      if (!stream.ended) {
        if (m.text.length > stream.text.length) events.push(...this.write(stream, m.text.slice(stream.text.length)));
        events.push(...this.end(stream));
      }
      messageId = stream.id;
    } else if (m.text && this.partOf(m.text)) {
      // Words the client began to get before its stream dropped: the rest, under the id it has them by.
      const had = this.partOf(m.text)!;
      const rest = m.text.slice(contentOf(had).length);
      had.content = m.text;
      messageId = had.id;
      events.push(
        { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' },
        ...(rest ? [{ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: rest } as const] : []),
        { type: EventType.TEXT_MESSAGE_END, messageId },
      );
    } else if (m.text) {
      this.added.push({ id, role: 'assistant', content: m.text });
      events.push(
        { type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant' },
        { type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: m.text },
        { type: EventType.TEXT_MESSAGE_END, messageId: id },
      );
    }
    if (!m.toolCalls.length) return events;
    let owner = this.added.find((x) => x.id === messageId) as Assistant | undefined;
    if (!owner) this.added.push((owner = { id: messageId, role: 'assistant' }));
    for (const call of m.toolCalls) {
      const args = JSON.stringify(call.args);
      owner.toolCalls = [
        ...(owner.toolCalls ?? []),
        { id: call.id, type: 'function', function: { name: call.tool, arguments: args } },
      ];
      events.push(
        { type: EventType.TOOL_CALL_START, toolCallId: call.id, toolCallName: call.tool, parentMessageId: messageId },
        { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: args },
        { type: EventType.TOOL_CALL_END, toolCallId: call.id },
      );
    }
    return events;
  }
}

/** A message's words, whatever its role. */
function contentOf(message: Message | undefined): string {
  return message && 'content' in message && typeof message.content === 'string' ? message.content : '';
}

function findLastIndex<T>(list: T[], test: (item: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i]!)) return i;
  return -1;
}
