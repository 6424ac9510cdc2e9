// What a bus remembers of one conversation's stream: the partial text of the attempt in progress (for late
// subscribers) and the attempts that ended (so a stray chunk of a failed attempt — a worker that lost its activity
// but still streams — cannot resurrect text that a `discard` voided), and the attempts another one replaced (a model
// call cancelled for a message that interrupts the turn writes on until its activity hears of the cancel: its late
// text must not replace the new call's, and only its `discard` or `done` still passes). Bounded whatever the model
// writes.
import type { StreamChunk } from './bus';

/** Partial text kept for late subscribers; beyond it live subscribers still get every delta. */
export const MAX_PARTIAL_CHARS = 200_000;
const ENDED_KEPT = 16;

export class AttemptLog {
  private current?: { attempt: string; text: string };
  private readonly ended: string[] = [];
  private readonly replaced: string[] = [];

  /** Records a chunk; false when it belongs to an attempt that already ended, and should be dropped. */
  add(chunk: StreamChunk): boolean {
    if (this.ended.includes(chunk.attempt)) return false;
    // A tool's progress is shown as it comes and never replayed: it is no reply being written.
    if (chunk.kind === 'progress') return true;
    if (chunk.kind === 'delta') {
      if (this.replaced.includes(chunk.attempt)) return false;
      if (this.current?.attempt !== chunk.attempt) {
        if (this.current) keep(this.replaced, this.current.attempt);
        this.current = { attempt: chunk.attempt, text: '' };
      }
      if (this.current.text.length < MAX_PARTIAL_CHARS)
        this.current.text += chunk.text.slice(0, MAX_PARTIAL_CHARS - this.current.text.length);
      return true;
    }
    keep(this.ended, chunk.attempt);
    if (this.current?.attempt === chunk.attempt) this.current = undefined;
    return true;
  }

  /** The attempt in progress as one delta of its text so far; nothing once it is done or discarded. */
  partial(): StreamChunk[] {
    return this.current?.text ? [{ kind: 'delta', attempt: this.current.attempt, text: this.current.text }] : [];
  }

  /** Whether an attempt is being written (its chunks are worth keeping). */
  get inProgress(): boolean {
    return this.current !== undefined;
  }
}

/** Adds `attempt` to a list that keeps the latest ENDED_KEPT. */
function keep(list: string[], attempt: string): void {
  list.push(attempt);
  if (list.length > ENDED_KEPT) list.shift();
}
