// The worker's stream bus, wrapped to note when each text delta was published (the model chunk's publish time),
// keyed as the API's `token` events name it: attempt and offset (characters before the delta).
import type { StreamBus, StreamChunk } from '../stream/bus';
import { monoMs } from './sse-reader';

export interface PublishedDelta {
  conversationId: string;
  attempt: string;
  offset: number;
  at: number;
}

export class TimedBus implements StreamBus {
  private readonly byKey = new Map<string, PublishedDelta>();
  private readonly written = new Map<string, number>();

  constructor(private readonly inner: StreamBus) {}

  publish(conversationId: string, chunk: StreamChunk): void {
    if (chunk.kind === 'delta') {
      const offset = this.written.get(chunk.attempt) ?? 0;
      this.written.set(chunk.attempt, offset + chunk.text.length);
      this.byKey.set(deltaKey(chunk.attempt, offset), { conversationId, attempt: chunk.attempt, offset, at: monoMs() });
    }
    this.inner.publish(conversationId, chunk);
  }

  subscribe(conversationId: string, listener: (chunk: StreamChunk) => void): () => void {
    return this.inner.subscribe(conversationId, listener);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The delta a `token` event carries, if this bus published it. */
  delta(attempt: string, offset: number): PublishedDelta | undefined {
    return this.byKey.get(deltaKey(attempt, offset));
  }

  /** The deltas published for some conversations. */
  deltasOf(conversationIds: Set<string>): PublishedDelta[] {
    return [...this.byKey.values()].filter((d) => conversationIds.has(d.conversationId));
  }
}

const deltaKey = (attempt: string, offset: number) => `${attempt}|${offset}`;
