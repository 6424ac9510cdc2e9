// While a tool waits for the agent's turn, a client that asked for progress (it sent a progressToken) hears it: the
// reply as it is being written and a running tool's progress (from the stream bus, as the web chat sees them), and a
// beat every few seconds when nothing else is said, so a client that restarts its request timeout on progress does not
// give up on a long turn. Progress is a side channel: the tool's result still carries the whole reply.
import type { StreamBus } from '../../stream/bus';
import type { Extra } from './shapes';

/** Often enough for clients whose timeout restarts on progress (60 s by default in the SDK), rare enough to be quiet. */
const BEAT_MS = 10_000;
/** A progress message is for a person to glance at: the end of a long reply is enough. */
const MESSAGE_CHARS = 2_000;

/** Starts reporting the conversation's progress to the request's client; the returned function stops it. */
export function reportProgress(bus: StreamBus | undefined, id: string, extra: Extra): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let count = 0;
  let text = '';
  let attempt = '';
  let lastSent = Date.now();
  const send = (message: string) => {
    lastSent = Date.now();
    const params = { progressToken: token, progress: ++count, message: message.slice(-MESSAGE_CHARS) };
    extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
  };
  const unsubscribe =
    bus?.subscribe(id, (chunk) => {
      if (chunk.kind === 'delta') {
        // A new attempt (a retry after a failed model call) writes the reply anew.
        if (chunk.attempt !== attempt) [attempt, text] = [chunk.attempt, ''];
        text += chunk.text;
        send(text);
      } else if (chunk.kind === 'discard') {
        text = '';
      } else if (chunk.kind === 'progress') {
        const counted = chunk.progress !== undefined ? `${chunk.progress}${chunk.total ? `/${chunk.total}` : ''}` : '';
        send(`${chunk.tool}: ${[counted, chunk.message].filter(Boolean).join(' ')}`);
      }
    }) ?? (() => {});
  const beat = setInterval(() => {
    if (Date.now() - lastSent >= BEAT_MS) send(text || 'The agent is working…');
  }, BEAT_MS);
  return () => {
    clearInterval(beat);
    unsubscribe();
  };
}
