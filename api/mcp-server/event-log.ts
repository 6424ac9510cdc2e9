// What a session's streams sent, kept a while, so a client whose connection drops in the middle of a turn (a
// send_message waiting minutes for the agent) reconnects with Last-Event-ID and gets the rest — the reply included —
// instead of losing it (MCP's resumability; the SDK's transport does the protocol, this is its EventStore). In memory
// and bounded: past the bounds the oldest events go, and a client resuming from one of them is refused; the
// conversation itself is durable anyway (get_status, get_history).
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface Logged {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
  chars: number;
}

export class SessionEventLog implements EventStore {
  private readonly events: Logged[] = [];
  private chars = 0;
  private seq = 0;

  constructor(private readonly limits = { events: 200, chars: 1_000_000 }) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const event = { id: `e${++this.seq}`, streamId, message, chars: JSON.stringify(message).length };
    this.events.push(event);
    this.chars += event.chars;
    while (this.events.length > this.limits.events || (this.chars > this.limits.chars && this.events.length > 1))
      this.chars -= this.events.shift()!.chars;
    return event.id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) throw new Error(`event ${lastEventId} is no longer kept`);
    const { streamId } = this.events[at]!;
    for (const e of this.events.slice(at + 1)) {
      // A stream's priming event carries no message: nothing to send again.
      if (e.streamId === streamId && 'jsonrpc' in e.message) await send(e.id, e.message);
    }
    return streamId;
  }
}
