// The stream bus within one process: `npm start` runs the API and the worker together, so no broker is needed.
// It keeps per conversation only the partial text of the attempt in progress, forgets a conversation shortly after
// its attempt ends, and caps how many conversations it remembers, so memory stays bounded.
import { AttemptLog } from './attempt-log';
import { deliver, type StreamBus, type StreamChunk } from './bus';

type Listener = (chunk: StreamChunk) => void;

interface Conversation {
  log: AttemptLog;
  listeners: Set<Listener>;
  forget?: NodeJS.Timeout;
}

export interface MemoryStreamBusOptions {
  /** How long an ended attempt is remembered (to drop its stray chunks) before the conversation is forgotten. */
  forgetAfterMs?: number;
  /** Conversations remembered at most; the least recently active one without subscribers makes room. */
  maxConversations?: number;
}

export class MemoryStreamBus implements StreamBus {
  private readonly conversations = new Map<string, Conversation>();
  private readonly forgetAfterMs: number;
  private readonly maxConversations: number;
  private closed = false;

  constructor({ forgetAfterMs = 60_000, maxConversations = 10_000 }: MemoryStreamBusOptions = {}) {
    this.forgetAfterMs = forgetAfterMs;
    this.maxConversations = maxConversations;
  }

  publish(conversationId: string, chunk: StreamChunk): void {
    if (this.closed) return;
    const convo = this.touch(conversationId);
    if (!convo.log.add(chunk)) return;
    this.scheduleForget(conversationId, convo);
    for (const listener of [...convo.listeners]) deliver(listener, chunk);
  }

  subscribe(conversationId: string, listener: Listener): () => void {
    if (this.closed) return () => {};
    const convo = this.touch(conversationId);
    convo.listeners.add(listener);
    clearTimeout(convo.forget);
    for (const chunk of convo.log.partial()) deliver(listener, chunk);
    return () => {
      convo.listeners.delete(listener);
      if (this.conversations.get(conversationId) === convo) this.scheduleForget(conversationId, convo);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const convo of this.conversations.values()) clearTimeout(convo.forget);
    this.conversations.clear();
  }

  /** How many conversations are remembered (for tests of the bounds). */
  get size(): number {
    return this.conversations.size;
  }

  /** The conversation's state, marked most recently active; a new one may evict an idle one. */
  private touch(conversationId: string): Conversation {
    let convo = this.conversations.get(conversationId);
    if (convo) {
      this.conversations.delete(conversationId);
    } else {
      convo = { log: new AttemptLog(), listeners: new Set() };
      if (this.conversations.size >= this.maxConversations) this.evictOne();
    }
    this.conversations.set(conversationId, convo);
    return convo;
  }

  private evictOne(): void {
    for (const [id, convo] of this.conversations) {
      if (convo.listeners.size === 0) {
        clearTimeout(convo.forget);
        this.conversations.delete(id);
        return;
      }
    }
  }

  /** Idle (nothing being written, nobody listening): forgotten after a while, unless it wakes up meanwhile. */
  private scheduleForget(conversationId: string, convo: Conversation): void {
    clearTimeout(convo.forget);
    convo.forget = undefined;
    if (convo.log.inProgress || convo.listeners.size > 0) return;
    convo.forget = setTimeout(() => {
      if (this.conversations.get(conversationId) === convo) this.conversations.delete(conversationId);
    }, this.forgetAfterMs);
    convo.forget.unref();
  }
}
