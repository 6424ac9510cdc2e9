// The model of the API benchmarks: a local server speaking OpenAI Chat Completions that streams every reply with a
// fixed time to first token, then one chunk per word at a fixed pace. It notes, per prompt, when the request came
// in and when the first text chunk went out, on the model's side of the wire.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { completion, lastUserText, streamEvents, type ChatRequestBody } from '../testkit/fake-chat-completions';
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
  close(): Promise<void>;
}

export async function startStreamingModel(ttftMs: number, chunkMs: number): Promise<StreamingModel> {
  const turns = new Map<string, ModelTurn>();
  const server = http.createServer((req, res) => {
    const receivedAt = monoMs();
    let raw = '';
    req.setEncoding('utf8').on('data', (d: string) => (raw += d));
    req.on('end', () => void answer(JSON.parse(raw) as ChatRequestBody, receivedAt, res));
  });

  async function answer(body: ChatRequestBody, receivedAt: number, res: http.ServerResponse): Promise<void> {
    const turn: ModelTurn = { receivedAt };
    turns.set(lastUserText(body), turn);
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const [role, ...rest] = streamEvents(completion({ text: STREAMED_REPLY }), includeUsage);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let hungUp = false;
    res.on('close', () => (hungUp = !res.writableFinished));
    const write = (event: unknown) =>
      res.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
    await sleep(Math.max(0, ttftMs - (monoMs() - receivedAt)));
    write(role);
    for (const event of rest) {
      if (hungUp) return;
      const text = isText(event);
      if (text && turn.firstChunkAt !== undefined && chunkMs > 0) await sleep(chunkMs);
      if (text) turn.firstChunkAt ??= monoMs();
      write(event);
    }
    write('[DONE]');
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    turns,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function isText(event: Record<string, unknown>): boolean {
  const choices = event.choices as { delta?: { content?: string } }[] | undefined;
  return Boolean(choices?.[0]?.delta?.content);
}
