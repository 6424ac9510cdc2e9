// The files a conversation holds: those its user attached, and the tool results and replies kept whole in the blob
// store. ReadFile reads only these (an id the conversation was never given is refused here, in the workflow), and
// ReadFile is offered only while there are some. Carried across continue-as-new, so a file summarised out of the transcript stays readable.
import type { BlobRef } from '../../core/blobs';
import type { ChatMessage } from '../../core/types';

/** Files carried into the next run at most: the newest. */
const CARRIED_FILES = 100;

export class HeldFiles {
  private readonly refs = new Map<string, BlobRef>();

  constructor(carried: BlobRef[] = []) {
    for (const ref of carried) this.refs.set(ref.id, ref);
  }

  /** Takes in the files a message brings (a prompt's attachments, a tool result kept whole). */
  take(message: ChatMessage): void {
    const refs =
      message.kind === 'user'
        ? (message.attachments ?? [])
        : message.kind === 'agent' && message.stored
          ? [message.stored]
          : message.kind === 'tool' && message.outcome.status === 'ok' && message.outcome.stored
            ? [message.outcome.stored]
            : [];
    for (const ref of refs) {
      this.refs.delete(ref.id); // newest last
      this.refs.set(ref.id, ref);
    }
  }

  get(id: string): BlobRef | undefined {
    return this.refs.get(id);
  }

  get any(): boolean {
    return this.refs.size > 0;
  }

  list(): BlobRef[] {
    return [...this.refs.values()];
  }

  carried(): BlobRef[] {
    return this.list().slice(-CARRIED_FILES);
  }
}
