// A tiny local server that speaks the OpenAI Chat Completions protocol, scripted per test, so the `openai-compatible`
// provider is exercised over real HTTP. A `stream: true` request gets the same answer as server-sent events, as
// OpenAI sends them (optionally paced, or cut off mid-reply). It records what the provider sent.
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

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

/** How a completion is streamed to a `stream: true` request; a plain request gets the completion as JSON. */
export interface StreamedResponse {
  streamed: Record<string, unknown>;
  /** Pause between events. */
  chunkDelayMs?: number;
  /** The first event after the role (text or a tool call) goes out this long after the request arrived, not paced. */
  ttftMs?: number;
  /** Sends this many events, then drops the connection: a provider failing mid-reply. */
  cutAfter?: number;
  /** Called just before each event is written (a benchmark notes when the first text went out). */
  onWrite?: (event: Record<string, unknown>) => void;
}

export type ScriptResult = RawResponse | StreamedResponse | Record<string, unknown>;
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
const isStreamed = (r: ScriptResult): r is StreamedResponse => typeof (r as StreamedResponse).streamed === 'object';

/** A completion (see `completion`) streamed with a pace, or cut off after `cutAfter` events. */
export function streamed(
  body: Record<string, unknown>,
  opts: Omit<StreamedResponse, 'streamed'> = {},
): StreamedResponse {
  return { streamed: body, ...opts };
}

let completionSeq = 0;

/** A Chat Completions response body: assistant text and/or tool calls (args as objects), with usage. */
export function completion(opts: {
  text?: string | null;
  toolCalls?: { id?: string; name: string; args: unknown }[];
  usage?: { prompt: number; completion: number };
  model?: string;
}): Record<string, unknown> {
  const toolCalls = (opts.toolCalls ?? []).map((c, i): WireToolCall => ({
    id: c.id ?? `call_${++completionSeq}_${i}`,
    type: 'function',
    function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
  }));
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
    usage: {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
    },
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

// ---- streaming ---------------------------------------------------------------------------------------------

interface CompletionBody {
  id: string;
  created: number;
  model: string;
  choices: { message: { content: string | null; tool_calls?: WireToolCall[] }; finish_reason: string }[];
  usage?: unknown;
}

/** A completion as the `chat.completion.chunk` events OpenAI streams: role, text in pieces, tool calls, finish, usage. */
export function streamEvents(
  completionBody: Record<string, unknown>,
  includeUsage: boolean,
): Record<string, unknown>[] {
  const c = completionBody as unknown as CompletionBody;
  const choice = c.choices?.[0];
  if (!choice) return []; // not a completion: the stream ends at once, as a broken provider's would
  const event = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: c.id,
    object: 'chat.completion.chunk',
    created: c.created,
    model: c.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: Record<string, unknown>[] = [event({ role: 'assistant', content: '' })];
  for (const piece of choice.message.content?.match(/\s*\S+\s*/g) ?? []) events.push(event({ content: piece }));
  (choice.message.tool_calls ?? []).forEach((call, index) => {
    events.push(
      event({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      }),
    );
    // Arguments arrive in pieces too, so the provider must join them.
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    for (const part of [args.slice(0, half), args.slice(half)])
      if (part) events.push(event({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  events.push(event({}, choice.finish_reason));
  if (includeUsage)
    events.push({
      id: c.id,
      object: 'chat.completion.chunk',
      created: c.created,
      model: c.model,
      choices: [],
      usage: c.usage,
    });
  return events;
}

async function sendStream(
  res: ServerResponse,
  answer: StreamedResponse,
  includeUsage: boolean,
  hungUp: AbortSignal,
  arrivedAt: number,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const write = (data: string) => new Promise<void>((resolve) => res.write(`data: ${data}\n\n`, () => resolve()));
  const events = streamEvents(answer.streamed, includeUsage);
  for (const [i, event] of events.entries()) {
    if (answer.cutAfter !== undefined && i >= answer.cutAfter) {
      res.destroy(); // mid-reply, no [DONE]: what a crashed or overloaded provider does
      return;
    }
    if (i === 1 && answer.ttftMs !== undefined) await sleep(Math.max(0, arrivedAt + answer.ttftMs - performance.now()));
    else if (i > 0 && answer.chunkDelayMs) await sleep(answer.chunkDelayMs);
    if (hungUp.aborted) return;
    answer.onWrite?.(event);
    await write(JSON.stringify(event));
  }
  await write('[DONE]');
  res.end();
}

// ---- the server ----------------------------------------------------------------------------------------------

export async function startFakeChatCompletions(
  initial: Script = () => completion({ text: 'ok' }),
): Promise<FakeChatCompletions> {
  let script = initial;
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const arrivedAt = performance.now();
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
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body,
          rawBody,
          hungUp: hangUp.signal,
        };
        requests.push(recorded);

        let answer: RawResponse;
        if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/chat/completions') {
          answer = httpError(404, `Unknown endpoint ${req.method} ${req.url}`);
        } else if (body === undefined) {
          answer = httpError(400, 'The request body is not JSON.');
        } else {
          let result: ScriptResult;
          try {
            result = await script(body, recorded);
          } catch (err) {
            result = httpError(500, `The fake script threw: ${(err as Error).message}`);
          }
          if (body.stream && !isRaw(result)) {
            const includeUsage =
              (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
            const answer = isStreamed(result) ? result : streamed(result);
            return sendStream(res, answer, includeUsage, hangUp.signal, arrivedAt);
          }
          answer = isRaw(result) ? result : { status: 200, body: isStreamed(result) ? result.streamed : result };
        }
        const payload =
          answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
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
