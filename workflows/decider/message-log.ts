// The conversation's messages as this run holds them, and what the decider reads back from them: the agent's latest
// words, the user's, the task's last result. It also knows how much of it model requests have carried, so each
// request sends only the messages that follow (a flat history: see TranscriptRef).
import type { QueuedPrompt } from '../../core/effects';
import type { ChatMessage } from '../../core/types';
import type { ConversationFeed } from '../../core/conversation-types';
import type { TranscriptRef } from '../../core/activity-types';
import type { BlobRef } from '../../core/blobs';
import { HeldFiles } from './files';

export class MessageLog {
  readonly messages: ChatMessage[];
  /** The files its messages brought (and those carried from earlier runs). */
  readonly files: HeldFiles;
  /** How many messages LLM requests of this run have carried so far; later requests send only what follows. */
  private sentUpTo = 0;

  constructor(
    carried: ChatMessage[] = [],
    /** The sequence number of `messages[0]` in the whole conversation (see CarriedState.firstSeq). */
    readonly firstSeq = 0,
    carriedFiles: BlobRef[] = [],
  ) {
    this.messages = [...carried];
    this.files = new HeldFiles(carriedFiles);
    for (const m of carried) this.files.take(m);
  }

  get length(): number {
    return this.messages.length;
  }

  push(message: ChatMessage): void {
    this.messages.push(message);
    this.files.take(message);
  }

  /** A prompt as the transcript keeps it; a goal's starter prompt is marked, so views show the agent opening. */
  user(prompt: QueuedPrompt): void {
    this.push({
      kind: 'user',
      text: prompt.text,
      promptId: prompt.id,
      ...(prompt.starter ? { starter: true as const } : {}),
      ...(prompt.attachments?.length ? { attachments: prompt.attachments } : {}),
      ...(prompt.ref ? { ref: prompt.ref } : {}),
    });
  }

  say(text: string): void {
    this.messages.push({ kind: 'agent', text, toolCalls: [] });
  }

  /** `forUser`: the user reads it, the model is not sent it. */
  note(text: string, forUser = false): void {
    this.messages.push({ kind: 'note', text, ...(forUser ? { forUser: true as const } : {}) });
  }

  /** The user's last message says `text` instead (a hook rewrote or withheld it): requests resend from there, so a
   * worker's copy of the transcript (activities/llm/transcripts.ts) takes the new words too. */
  rewriteLastUser(text: string): void {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.kind !== 'user') continue;
      this.messages[i] = { ...m, text };
      this.sentUpTo = Math.min(this.sentUpTo, i);
      return;
    }
  }

  /** What the agent said since the user's last message ('' when nothing yet). */
  latestAgentText(): string {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'user') return '';
      if (m.kind === 'agent' && m.text.trim()) return m.text;
    }
    return '';
  }

  /** The user's latest words (not a starter prompt). */
  lastUserText(): string {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'user' && !m.starter) return m.text;
    }
    return '';
  }

  /** The result of the last successful call since the user's last message that `counts`. */
  lastResult(counts: (tool: string) => boolean): unknown {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'user') return undefined;
      if (m.kind === 'tool' && m.outcome.status === 'ok' && counts(m.call.tool)) return m.outcome.result;
    }
    return undefined;
  }

  /** The last `max` distinct tools the LLM called, but `except`. */
  recentlyUsed(max: number, except: string): Set<string> {
    const used = new Set<string>();
    for (let i = this.messages.length - 1; i >= 0 && used.size < max; i--) {
      const m = this.messages[i]!;
      if (m.kind === 'agent') for (const c of m.toolCalls) if (used.size < max && c.tool !== except) used.add(c.tool);
    }
    return used;
  }

  /** The first `count` messages by reference: only those not sent in an earlier request of this run go along. */
  ref(count = this.messages.length): TranscriptRef {
    const from = Math.min(this.sentUpTo, count);
    this.sentUpTo = Math.max(this.sentUpTo, count);
    return { count, tail: this.messages.slice(from, count) };
  }

  /** Messages from sequence number `since` on, each with its sequence number (live views). */
  since(since: number): ConversationFeed['messages'] {
    const from = Math.max(0, since - this.firstSeq);
    return this.messages.slice(from).map((message, i) => ({ seq: this.firstSeq + from + i, message }));
  }

  /** The sequence number the next message will have. */
  get next(): number {
    return this.firstSeq + this.messages.length;
  }
}
