// The prompts waiting for the agent, in order, and the one it is answering now: a reply goes to whoever waits for
// that prompt (Replies). Ids count up through the whole conversation, across continue-as-new.
import type { QueuedPrompt } from '../../core/effects';
import { MAX_ATTACHMENTS, MAX_PROMPT_CHARS, MAX_PROMPT_REF_CHARS, type PromptInput } from '../../core/messages';
import type { BlobRef } from '../../core/blobs';
import type { CarriedState } from '../../core/conversation-types';
import { WHILE_BUSY, type WhileBusy } from '../../core/types';

export class Prompts {
  private readonly queue: QueuedPrompt[];
  private seq: number;
  /** The prompt the agent is answering. */
  active = 0;

  constructor(carried?: Pick<CarriedState, 'pendingPrompts' | 'promptSeq'>) {
    this.queue = carried ? [...carried.pendingPrompts] : [];
    this.seq = carried?.promptSeq ?? 0;
  }

  /** Queues a prompt at the back (`steer`: to join the turn running now); its id. */
  add(text: string, attachments: BlobRef[] = [], ref?: string, steer = false): number {
    this.queue.push({
      id: ++this.seq,
      text,
      ...(attachments.length ? { attachments } : {}),
      ...(ref ? { ref } : {}),
      ...(steer ? { steer } : {}),
    });
    return this.seq;
  }

  /** Whether a prompt waits to join the running turn. */
  steering(): boolean {
    return this.queue.some((p) => p.steer);
  }

  /** The oldest prompt sent to join the running turn, taken up as the one the agent now answers. */
  takeSteering(): QueuedPrompt | undefined {
    const at = this.queue.findIndex((p) => p.steer);
    if (at < 0) return undefined;
    const [prompt] = this.queue.splice(at, 1);
    this.active = prompt!.id;
    return prompt;
  }

  /** Puts a prompt the agent starts with first: a goal's starter prompt, or a delegate's task (with its files). */
  first(text: string, starter: boolean, attachments: BlobRef[] = []): void {
    this.queue.unshift({
      id: ++this.seq,
      text,
      ...(starter ? { starter } : {}),
      ...(attachments.length ? { attachments } : {}),
    });
  }

  /** The prompts not taken up yet, by id and the client's ref. */
  waiting(): { promptId: number; ref?: string }[] {
    return this.queue.map(({ id, ref }) => ({ promptId: id, ...(ref ? { ref } : {}) }));
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
    // Between turns nothing is left to steer: a prompt carried over starts a turn of its own.
    const pendingPrompts = this.queue.map(({ id, text, attachments, ref }) => ({
      id,
      text,
      ...(attachments ? { attachments } : {}),
      ...(ref ? { ref } : {}),
    }));
    return { pendingPrompts, promptSeq: this.seq };
  }
}

/** A prompt's words and files, whichever form it came in (a string from clients before files). */
export function promptParts(input: PromptInput): {
  text: string;
  attachments: BlobRef[];
  ref?: string;
  whileBusy?: WhileBusy;
} {
  if (typeof input === 'string') return { text: input.trim(), attachments: [] };
  const { text, attachments, ref, whileBusy } = input;
  return {
    text: text.trim(),
    attachments: attachments ?? [],
    ...(ref ? { ref } : {}),
    ...(whileBusy ? { whileBusy } : {}),
  };
}

/** Why a prompt cannot be taken as it is (the update's validator throws it; a signal's is logged), or null. */
export function promptRefusal(input: unknown): string | null {
  const { text, attachments, ref, whileBusy } =
    typeof input === 'string'
      ? { text: input, attachments: [] }
      : ((input ?? {}) as { text?: unknown; attachments?: unknown; ref?: unknown; whileBusy?: unknown });
  if (typeof text !== 'string' || !text.trim()) return 'The prompt is empty.';
  if (whileBusy !== undefined && !(WHILE_BUSY as readonly unknown[]).includes(whileBusy))
    return `whileBusy must be one of ${WHILE_BUSY.join(', ')}.`;
  if (ref !== undefined && (typeof ref !== 'string' || !ref || ref.length > MAX_PROMPT_REF_CHARS))
    return `ref must be a string of 1 to ${MAX_PROMPT_REF_CHARS} characters.`;
  if (text.length > MAX_PROMPT_CHARS)
    return `The prompt has ${text.length} characters; the limit is ${MAX_PROMPT_CHARS}.`;
  if (attachments === undefined) return null;
  if (!Array.isArray(attachments)) return 'attachments must be a list of stored files.';
  if (attachments.length > MAX_ATTACHMENTS)
    return `The prompt has ${attachments.length} files; the limit is ${MAX_ATTACHMENTS}.`;
  const bad = attachments.find((a: Partial<BlobRef>) => !isRef(a));
  return bad ? `Not a stored file: ${JSON.stringify(bad).slice(0, 100)} (store it first: POST /api/files).` : null;
}

function isRef(a: Partial<BlobRef> | null): boolean {
  return (
    !!a &&
    typeof a.id === 'string' &&
    /^[0-9a-f]{64}$/.test(a.id) &&
    typeof a.size === 'number' &&
    typeof a.type === 'string' &&
    typeof a.name === 'string' &&
    typeof a.preview === 'string'
  );
}
