// The prompts waiting for the agent, in order, and the one it is answering now: a reply goes to whoever waits for
// that prompt (Replies). Ids count up through the whole conversation, across continue-as-new.
import type { QueuedPrompt } from '../../core/effects';
import { MAX_PROMPT_CHARS } from '../../core/messages';
import type { CarriedState } from '../../core/conversation-types';

export class Prompts {
  private readonly queue: QueuedPrompt[];
  private seq: number;
  /** The prompt the agent is answering. */
  active = 0;

  constructor(carried?: Pick<CarriedState, 'pendingPrompts' | 'promptSeq'>) {
    this.queue = carried ? [...carried.pendingPrompts] : [];
    this.seq = carried?.promptSeq ?? 0;
  }

  /** Queues a prompt at the back; its id. */
  add(text: string): number {
    this.queue.push({ id: ++this.seq, text });
    return this.seq;
  }

  /** Puts a prompt the agent starts with first: a goal's starter prompt, or a delegate's task. */
  first(text: string, starter: boolean): void {
    this.queue.unshift({ id: ++this.seq, text, ...(starter ? { starter } : {}) });
  }

  get length(): number {
    return this.queue.length;
  }

  peek(): QueuedPrompt | undefined {
    return this.queue[0];
  }

  /** The next prompt, taken up as the one the agent now answers. */
  take(): QueuedPrompt | undefined {
    const prompt = this.queue.shift();
    if (prompt) this.active = prompt.id;
    return prompt;
  }

  /** What continue-as-new carries: the prompts still waiting, and the last id given. */
  carried(): Pick<CarriedState, 'pendingPrompts' | 'promptSeq'> {
    return { pendingPrompts: this.queue.map(({ id, text }) => ({ id, text })), promptSeq: this.seq };
  }
}

/** Why a prompt cannot be taken as it is (the update's validator throws it; a signal's is logged), or null. */
export function promptRefusal(text: unknown): string | null {
  if (typeof text !== 'string' || !text.trim()) return 'The prompt is empty.';
  if (text.length > MAX_PROMPT_CHARS)
    return `The prompt has ${text.length} characters; the limit is ${MAX_PROMPT_CHARS}.`;
  return null;
}
