// The reply as it is written, in a terminal: the chat prints the model's text as the stream bus carries it, so the
// first words show one model time-to-first-token after the prompt, not once the whole reply exists.
import type { StreamBus } from '../stream/bus';

export interface StreamedText {
  /** Stops printing (again: no-op); the last text printed whole (its attempt done), so the reply is not printed twice. */
  stop(): string | null;
}

export function printStreamedText(bus: StreamBus, conversationId: string, write: (s: string) => void): StreamedText {
  let open: { attempt: string; text: string } | null = null;
  let last: string | null = null;
  const unsubscribe = bus.subscribe(conversationId, (chunk) => {
    if (chunk.kind === 'delta') {
      if (open?.attempt !== chunk.attempt) {
        if (open) write('\n');
        open = { attempt: chunk.attempt, text: '' };
        write('agent> ');
      }
      open.text += chunk.text;
      write(chunk.text);
    } else if (open?.attempt === chunk.attempt) {
      write(chunk.kind === 'done' ? '\n' : '\n(that answer broke off; the model is asked again)\n');
      last = chunk.kind === 'done' ? open.text : null;
      open = null;
    }
  });
  let stopped = false;
  return {
    stop() {
      if (!stopped) {
        stopped = true;
        unsubscribe();
        if (open) write('\n');
      }
      return open ? null : last;
    },
  };
}
