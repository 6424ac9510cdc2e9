// One AG-UI run as a Server-Sent Events response: RUN_STARTED and a STATE_SNAPSHOT, then the turn as it happens
// (run-events.ts) until it is over or waits for the user, then RUN_FINISHED (with the interrupt it waits on) or
// RUN_ERROR. The events come from the conversation's live view (api/live-feed.ts, the one the web chat's events and
// A2A's task streams come from), opened before the run's message is sent so no word written is missed; whether the
// turn is over is read from the workflow's feed each time something durable changes.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { EventType, PROTOCOL_VERSION, type Event as AgUiEvent, type RunAgentInput } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { AgentClient } from '../../client/agent-client';
import type { LiveEvent } from '../../core/live-events';
import type { LiveFeeds } from '../live-feed';
import { UserError } from '../../core/user-error';
import { RunEvents } from './run-events';
import { outcomeOf, snapshotOf, turnState } from './run-state';

/** How often an open run says it is alive (an SSE comment, which clients skip), so proxies keep it open. */
const KEEPALIVE_MS = 15_000;

/** A conversation's live view, its events queued until the run reads them. */
export class Follower {
  private queue: LiveEvent[] = [];
  private wake: (() => void) | null = null;
  ended = false;
  private closeView: () => void = () => {};

  static async open(feeds: LiveFeeds, id: string, from: number): Promise<Follower> {
    const f = new Follower();
    f.closeView = await feeds.open(
      id,
      { next: from, attempt: '', offset: 0 },
      (event) => f.push(event),
      () => {
        f.ended = true;
        f.wake?.();
      },
    );
    return f;
  }

  /** The events queued since the last call; waits for one when none is (or for the end, or `close`). */
  async next(): Promise<LiveEvent[]> {
    while (!this.queue.length && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    return this.queue.splice(0);
  }

  /** The events queued now, without waiting. */
  drain(): LiveEvent[] {
    return this.queue.splice(0);
  }

  close(): void {
    this.ended = true;
    this.closeView();
    this.wake?.();
  }

  private push(event: LiveEvent): void {
    this.queue.push(event);
    this.wake?.();
  }
}

export interface RunToStream {
  agents: AgentClient;
  follower: Follower;
  conversationId: string;
  /** The turn the run follows. */
  promptId: number;
  /** The first durable message the run shows (earlier ones the client has). */
  from: number;
  input: RunAgentInput;
}

export function streamRun(c: Context, run: RunToStream): Response {
  const { agents, follower, conversationId: id, promptId, input } = run;
  const encoder = new EventEncoder();
  const base = { threadId: input.threadId, runId: input.runId };
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => follower.close());
    let writing = Promise.resolve();
    // One write after another; a client gone ends the run (the conversation goes on: the next run picks it up).
    const write = (text: string) =>
      (writing = writing
        .then(() => stream.write(text))
        .then(
          () => undefined,
          () => follower.close(),
        ));
    const send = (events: AgUiEvent[]) => {
      for (const e of events) void write(encoder.encodeSSE(e));
      return writing;
    };
    const keepalive = setInterval(() => void write(': keepalive\n\n'), KEEPALIVE_MS);
    try {
      await send([{ type: EventType.RUN_STARTED, ...base, protocolVersion: PROTOCOL_VERSION }]);
      let feed = await agents.feed(id, 0);
      const events = new RunEvents(id, input.messages, feed, run.from);
      await send([{ type: EventType.STATE_SNAPSHOT, snapshot: snapshotOf(input.state, events.current) }]);
      // What the view brought comes before each feed read, which shows the text held (run-events.ts).
      while (turnState(feed, promptId) === 'working' && !stream.aborted) {
        const batch = await follower.next();
        await send(batch.flatMap((e) => events.live(e)));
        if (follower.ended || events.holding || batch.some((e) => e.event !== 'token' && e.event !== 'tool_progress')) {
          const mark = events.mark();
          feed = await agents.feed(id, 0);
          await send(events.feed(feed, mark));
          if (follower.ended && turnState(feed, promptId) === 'working' && !stream.aborted)
            throw new UserError(`Lost the live view of conversation ${id}; run again to follow it.`, 'unavailable');
        }
      }
      if (stream.aborted) return;
      const mark = events.mark();
      await send([...follower.drain().flatMap((e) => events.live(e)), ...events.feed(feed, mark), ...events.close()]);
      const outcome = outcomeOf(feed, promptId);
      const result = { conversationId: id, goalId: feed.goalId, state: feed.state };
      await send([{ type: EventType.RUN_FINISHED, ...base, outcome, result }]);
    } catch (err) {
      // As the API's other errors: a user's error in its words, anything else logged and not shown.
      const message = err instanceof UserError ? err.message : 'Internal error; the API log has the details.';
      if (!(err instanceof UserError)) console.error(err);
      await send([{ type: EventType.RUN_ERROR, message }]).catch(() => undefined);
    } finally {
      clearInterval(keepalive);
      follower.close();
    }
  });
}
