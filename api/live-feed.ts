// Live views of conversations, for the events stream (SSE): durable messages, state and approvals come from the
// workflow (the `feed` query, polled by one watch per conversation however many views it has), the text being
// written and a running tool's progress come from the stream bus. Each view keeps its own position, so a view that reconnects with the id of
// the last event it saw gets what came after, once: no gap, no duplicate.
import type { AgentClient } from '../client/agent-client';
import type { StreamBus, StreamChunk } from '../stream/bus';
import type { ChatMessage } from '../core/types';
import type { ConversationFeed, ConversationState, PendingApproval } from '../core/conversation-types';
import type { ToolProgress, ToolQuestion } from '../core/tool-questions';
import type { LiveEvent } from '../core/live-events';

export type { ToolProgress };

export type { LiveEvent } from '../core/live-events';

/** Where a view is: the next message it wants, and how much of which attempt's text it has. */
export interface Position {
  next: number;
  attempt: string;
  offset: number;
}

/** A view's position as an SSE event id (opaque to clients; the browser sends it back on reconnect). */
export function eventId(p: Position): string {
  return `${p.next}|${p.attempt}|${p.offset}`;
}

export function parseEventId(id: string | undefined): Position | null {
  const m = /^(\d+)\|([^|]*)\|(\d+)$/.exec(id ?? '');
  return m ? { next: Number(m[1]), attempt: m[2]!, offset: Number(m[3]) } : null;
}

export interface FeedTiming {
  /** How often a conversation whose agent is working is looked at. */
  busyMs: number;
  /** How often one waiting for the user is: the API's own requests and the bus's `done` look at once. */
  idleMs: number;
}

const RECENT_KEPT = 200;

const DEFAULT_TIMING: FeedTiming = { busyMs: 150, idleMs: 1_000 };

interface View {
  position: Position;
  send(event: LiveEvent, position: Position): void;
  /** Called once when the conversation has ended or cannot be watched; the view then closes. */
  end(): void;
}

export class LiveFeeds {
  private readonly watches = new Map<string, Watch>();

  constructor(
    private readonly agents: AgentClient,
    private readonly bus: StreamBus,
    private readonly timing: FeedTiming = DEFAULT_TIMING,
  ) {}

  /**
   * Opens a view from `from` (a position, or the first message): sends what it missed, the state, the approval
   * and the text being written, then everything new. Returns the function that closes it.
   */
  async open(id: string, from: Position, send: View['send'], end: View['end']): Promise<() => void> {
    const feed = await this.agents.feed(id, from.next);
    let watch = this.watches.get(id);
    if (!watch) {
      watch = new Watch(id, this.agents, this.bus, this.timing, feed, () => this.watches.delete(id));
      this.watches.set(id, watch);
    }
    return watch.add({ position: { ...from }, send, end }, feed);
  }

  /** Looks at the conversation now: the API just sent it something. */
  poke(id: string): void {
    this.watches.get(id)?.lookSoon(0);
  }

  close(): void {
    for (const w of this.watches.values()) w.stop();
  }
}

class Watch {
  private readonly views = new Set<View>();
  private next: number;
  private state: ConversationState;
  private goalId: string;
  private approval: string;
  private pending: PendingApproval | null;
  /** The question a running tool asks (compared as JSON, like the approval), and the latest progress of a tool. */
  private questionJson: string;
  private question: ToolQuestion | null;
  private progress: ToolProgress | null = null;
  /** The attempt whose text is being written, and the text so far. */
  private partial: { attempt: string; text: string } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private looking = false;
  private stopped = false;
  private readonly unsubscribe: () => void;
  private failures = 0;
  /** Messages this watch has passed on lately: a view whose own query was older than the watch gets them here. */
  private readonly recent: { seq: number; message: ChatMessage }[] = [];

  constructor(
    private readonly id: string,
    private readonly agents: AgentClient,
    bus: StreamBus,
    private readonly timing: FeedTiming,
    feed: ConversationFeed,
    private readonly onStop: () => void,
  ) {
    this.next = feed.next;
    this.state = feed.state;
    this.goalId = feed.goalId;
    this.pending = feed.pendingApproval;
    this.approval = JSON.stringify(feed.pendingApproval);
    this.question = feed.question ?? null;
    this.questionJson = JSON.stringify(this.question);
    this.unsubscribe = bus.subscribe(id, (chunk) => this.onChunk(chunk));
    this.lookSoon(this.delay());
  }

  add(view: View, feed: ConversationFeed): () => void {
    // What the view missed, from its own query (it may start before this watch's position).
    for (const m of [...feed.messages, ...this.recent])
      this.deliver(view, { event: 'message', data: m }, { next: m.seq + 1 });
    view.position.next = Math.max(view.position.next, feed.next);
    this.deliver(view, { event: 'state', data: { state: this.state, goalId: this.goalId } });
    this.deliver(view, { event: 'approval', data: { pending: this.pending } });
    this.deliver(view, { event: 'question', data: { question: this.question } });
    if (this.progress) this.deliver(view, { event: 'tool_progress', data: this.progress });
    if (this.partial) this.sendText(view, this.partial.attempt, this.partial.text);
    this.views.add(view);
    if (this.state === 'ended') this.endView(view);
    return () => this.remove(view);
  }

  lookSoon(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.look(), ms);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.unsubscribe();
    this.onStop();
  }

  private remove(view: View): void {
    this.views.delete(view);
    if (this.views.size === 0) this.stop();
  }

  private delay(): number {
    return this.state === 'working' || this.partial ? this.timing.busyMs : this.timing.idleMs;
  }

  private async look(): Promise<void> {
    if (this.looking || this.stopped) return;
    this.looking = true;
    try {
      const feed = await this.agents.feed(this.id, this.next);
      this.failures = 0;
      this.apply(feed);
    } catch (err) {
      // A conversation that vanished ends its views; a server away for a moment is retried, and said once.
      if ((err as { kind?: string }).kind === 'not_found') {
        this.broadcast({ event: 'error', data: { message: (err as Error).message } });
        for (const v of [...this.views]) this.endView(v);
        return;
      }
      if (++this.failures === 1)
        this.broadcast({
          event: 'error',
          data: { message: `Cannot reach the conversation: ${(err as Error).message}` },
        });
    } finally {
      this.looking = false;
    }
    this.lookSoon(this.failures ? Math.min(this.timing.idleMs * this.failures, 10_000) : this.delay());
  }

  private apply(feed: ConversationFeed): void {
    for (const m of feed.messages) {
      if (m.seq < this.next) continue;
      this.broadcast({ event: 'message', data: m }, { next: m.seq + 1 });
      this.next = m.seq + 1;
      this.recent.push(m);
      if (this.recent.length > RECENT_KEPT) this.recent.shift();
    }
    if (feed.state !== this.state || feed.goalId !== this.goalId) {
      this.state = feed.state;
      this.goalId = feed.goalId;
      if (this.state !== 'working') this.partial = null;
      // Progress is of the tool running now: a view that opens after the turn has none to see.
      if (this.state !== 'working' && this.state !== 'waiting_for_user') this.progress = null;
      this.broadcast({ event: 'state', data: { state: feed.state, goalId: feed.goalId } });
    }
    const approval = JSON.stringify(feed.pendingApproval);
    if (approval !== this.approval) {
      this.approval = approval;
      this.pending = feed.pendingApproval;
      this.broadcast({ event: 'approval', data: { pending: feed.pendingApproval } });
    }
    const question = JSON.stringify(feed.question ?? null);
    if (question !== this.questionJson) {
      this.questionJson = question;
      this.question = feed.question ?? null;
      this.broadcast({ event: 'question', data: { question: this.question } });
    }
    // A tool's result ends its progress.
    if (feed.messages.some((m) => m.message.kind === 'tool')) this.progress = null;
    if (this.state === 'ended') for (const v of [...this.views]) this.endView(v);
  }

  private onChunk(chunk: StreamChunk): void {
    if (chunk.kind === 'progress') {
      const { kind: _kind, ...progress } = chunk;
      this.progress = progress;
      this.broadcast({ event: 'tool_progress', data: progress });
    } else if (chunk.kind === 'delta') {
      const partial = this.partial?.attempt === chunk.attempt ? this.partial : { attempt: chunk.attempt, text: '' };
      partial.text += chunk.text;
      this.partial = partial;
      for (const v of this.views) this.sendText(v, chunk.attempt, partial.text);
    } else if (chunk.kind === 'discard') {
      if (this.partial?.attempt === chunk.attempt) this.partial = null;
      this.broadcast({ event: 'discard', data: { attempt: chunk.attempt } }, { attempt: '', offset: 0 });
    } else {
      // The attempt is complete: its message is in the workflow now or in a moment, and replaces its text. (Not the
      // arrival of an agent message: the one a poll brings may be an earlier step's, while this attempt still writes.)
      if (this.partial?.attempt === chunk.attempt) this.partial = null;
      this.lookSoon(0);
    }
  }

  /** Sends the part of an attempt's text the view does not have yet. */
  private sendText(view: View, attempt: string, text: string): void {
    const offset = view.position.attempt === attempt ? view.position.offset : 0;
    if (text.length <= offset) return;
    this.deliver(
      view,
      { event: 'token', data: { attempt, offset, text: text.slice(offset) } },
      { attempt, offset: text.length },
    );
  }

  private broadcast(event: LiveEvent, moved: Partial<Position> = {}): void {
    for (const v of this.views) this.deliver(v, event, moved);
  }

  private deliver(view: View, event: LiveEvent, moved: Partial<Position> = {}): void {
    if (event.event === 'message' && event.data.seq < view.position.next) return; // the view has it
    Object.assign(view.position, moved);
    view.send(event, { ...view.position });
  }

  private endView(view: View): void {
    this.views.delete(view);
    view.end();
    if (this.views.size === 0) this.stop();
  }
}
