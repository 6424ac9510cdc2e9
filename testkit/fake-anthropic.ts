// A tiny local server that speaks Anthropic's Messages API (streamed, as the AI SDK's anthropic provider asks for
// it), scripted per test: the real provider runs over real HTTP, and the server records what it was sent (a tool
// result's image blocks, say). Only what a test needs: text, or tool calls.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AnthropicRequest {
  model: string;
  messages: { role: string; content: string | Record<string, unknown>[] }[];
  tools?: { name: string }[];
  [key: string]: unknown;
}

export type AnthropicAnswer = { text: string } | { toolCalls: { name: string; input: unknown }[] };

export interface FakeAnthropic {
  /** LLM_BASE_URL for the anthropic provider (it posts to `<baseUrl>/messages`). */
  baseUrl: string;
  requests: AnthropicRequest[];
  close(): Promise<void>;
}

export async function startFakeAnthropic(script: (body: AnthropicRequest) => AnthropicAnswer): Promise<FakeAnthropic> {
  const requests: AnthropicRequest[] = [];
  let seq = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as AnthropicRequest;
      requests.push(body);
      const answer = script(body);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (type: string, data: Record<string, unknown>) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send('message_start', {
        message: {
          id: `msg_${++seq}`,
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      });
      const calls = 'toolCalls' in answer ? answer.toolCalls : [];
      if ('text' in answer) {
        send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: answer.text } });
        send('content_block_stop', { index: 0 });
      }
      calls.forEach((c, index) => {
        const id = `toolu_${seq}_${index}`;
        send('content_block_start', { index, content_block: { type: 'tool_use', id, name: c.name, input: {} } });
        send('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(c.input) },
        });
        send('content_block_stop', { index });
      });
      send('message_delta', {
        delta: { stop_reason: calls.length ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      });
      send('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
