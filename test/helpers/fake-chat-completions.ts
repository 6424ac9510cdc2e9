// A tiny local server that speaks the OpenAI Chat Completions protocol (non-streaming), scripted per test,
// so the `openai-compatible` provider is exercised over real HTTP. It records what the provider sent.
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The subset of a Chat Completions request the tests look at; the rest is kept as sent. */
export interface ChatRequestBody {
  model: string;
  messages: ChatRequestMessage[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
  tool_choice?: unknown;
  stream?: boolean;
  [key: string]: unknown;
}

export type ChatRequestMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | { type: string; text?: string }[] }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: ChatRequestBody;
  rawBody: string;
  /** Aborted when the client hangs up before the answer (a cancelled or timed-out model call). */
  hungUp: AbortSignal;
}

/** A full HTTP answer; anything else a script returns is sent as a 200 JSON body. */
export interface RawResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type ScriptResult = RawResponse | Record<string, unknown>;
export type Script = (body: ChatRequestBody, request: RecordedRequest) => ScriptResult | Promise<ScriptResult>;

export interface FakeChatCompletions {
  /** The base URL to give the provider (LLM_BASE_URL), e.g. http://127.0.0.1:41234/v1. */
  baseUrl: string;
  /** Every request received, in order, including ones answered with errors. */
  requests: RecordedRequest[];
  /** Replaces the script (tests in one file can share a server). */
  setScript(script: Script): void;
  /** Forgets recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

const isRaw = (r: ScriptResult): r is RawResponse =>
  typeof (r as RawResponse).status === 'number' && !('choices' in r) && !('object' in r);

let completionSeq = 0;

/** A Chat Completions response body: assistant text and/or tool calls (args as objects), with usage. */
export function completion(opts: {
  text?: string | null;
  toolCalls?: { id?: string; name: string; args: unknown }[];
  usage?: { prompt: number; completion: number };
  model?: string;
}): Record<string, unknown> {
  const toolCalls = (opts.toolCalls ?? []).map(
    (c, i): WireToolCall => ({
      id: c.id ?? `call_${++completionSeq}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
    }),
  );
  const usage = opts.usage ?? { prompt: 10, completion: 5 };
  return {
    id: `chatcmpl-${++completionSeq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: opts.model ?? 'test-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: opts.text ?? (toolCalls.length ? null : ''),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
  };
}

/** An OpenAI-style error answer. */
export function httpError(status: number, message: string, headers?: Record<string, string>): RawResponse {
  return { status, headers, body: { error: { message, type: 'test_error', param: null, code: null } } };
}

// ---- reading requests --------------------------------------------------------------------------------------

export function systemPrompt(body: ChatRequestBody): string | undefined {
  const m = body.messages.find((x) => x.role === 'system');
  return m ? String(m.content) : undefined;
}

export function lastUserText(body: ChatRequestBody): string {
  const users = body.messages.filter((m) => m.role === 'user');
  const last = users[users.length - 1];
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((p) => p.text ?? '').join('');
}

export function toolResults(body: ChatRequestBody): { role: 'tool'; tool_call_id: string; content: string }[] {
  return body.messages.filter((m): m is Extract<ChatRequestMessage, { role: 'tool' }> => m.role === 'tool');
}

/** The last message is a tool result: the model is being asked to continue after running a tool. */
export function isAfterTool(body: ChatRequestBody): boolean {
  return body.messages[body.messages.length - 1]?.role === 'tool';
}

// ---- the server ----------------------------------------------------------------------------------------------

export async function startFakeChatCompletions(initial: Script = () => completion({ text: 'ok' })): Promise<FakeChatCompletions> {
  let script = initial;
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: ChatRequestBody;
        try {
          body = JSON.parse(rawBody) as ChatRequestBody;
        } catch {
          body = undefined as unknown as ChatRequestBody;
        }
        const hangUp = new AbortController();
        res.on('close', () => {
          if (!res.writableFinished) hangUp.abort();
        });
        const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, rawBody, hungUp: hangUp.signal };
        requests.push(recorded);

        let answer: RawResponse;
        if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/chat/completions') {
          answer = httpError(404, `Unknown endpoint ${req.method} ${req.url}`);
        } else if (body === undefined) {
          answer = httpError(400, 'The request body is not JSON.');
        } else if (body.stream) {
          answer = httpError(400, 'This fake server does not stream.');
        } else {
          try {
            const result = await script(body, recorded);
            answer = isRaw(result) ? result : { status: 200, body: result };
          } catch (err) {
            answer = httpError(500, `The fake script threw: ${(err as Error).message}`);
          }
        }
        const payload = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, {
          'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...answer.headers,
        });
        res.end(payload);
      })();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(next) {
      script = next;
    },
    reset() {
      requests.length = 0;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // fetch keeps connections alive; drop them so close() resolves now and leaves no open handles.
        server.closeAllConnections();
      });
    },
  };
}
