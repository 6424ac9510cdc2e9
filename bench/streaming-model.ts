// The model of the API benchmarks: testkit's local Chat Completions server streaming every reply with a fixed time to
// first token, then one chunk per word at a fixed pace. It notes, per prompt, when the request came in and when the
// first text chunk went out, on the model's side of the wire.
import {
  completion,
  lastUserText,
  startFakeChatCompletions,
  streamed,
  type FakeChatCompletions,
} from '../testkit/fake-chat-completions';
import { monoMs } from './sse-reader';

/** Eight words: eight text chunks per reply. */
export const STREAMED_REPLY = 'A streamed answer, written one word per chunk.';

export interface ModelTurn {
  receivedAt: number;
  /** monoMs() just before the first text chunk was written to the socket. */
  firstChunkAt?: number;
}

export interface StreamingModel {
  baseUrl: string;
  /** By the prompt's text (the last user message). */
  turns: Map<string, ModelTurn>;
  close: FakeChatCompletions['close'];
}

export async function startStreamingModel(ttftMs: number, chunkMs: number): Promise<StreamingModel> {
  const turns = new Map<string, ModelTurn>();
  const server = await startFakeChatCompletions((body) => {
    const turn: ModelTurn = { receivedAt: monoMs() };
    turns.set(lastUserText(body), turn);
    const onWrite = (event: Record<string, unknown>) => {
      if (isText(event)) turn.firstChunkAt ??= monoMs();
    };
    return streamed(completion({ text: STREAMED_REPLY }), { ttftMs, chunkDelayMs: chunkMs, onWrite });
  });
  return { baseUrl: server.baseUrl, turns, close: () => server.close() };
}

function isText(event: Record<string, unknown>): boolean {
  const choices = event.choices as { delta?: { content?: string } }[] | undefined;
  return Boolean(choices?.[0]?.delta?.content);
}
