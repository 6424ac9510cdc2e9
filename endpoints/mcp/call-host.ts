// What a tool call offers the server while it runs. A server may ask its client things during a call: the user
// (elicitation: a form, or a URL to visit), a model (sampling), or it may just tell (log messages, progress). Our
// client is a worker-wide pool of sessions, so the pool gives each call a session of its own (pool.ts) and hands
// that session's requests to the call's host: the durable conversation behind the call answers them
// (activities/tool-questions.ts). Requests that arrive when no call holds the session are refused.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';

export interface CallHost {
  elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  sample(params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
  log(params: LoggingMessageNotification['params']): void;
  /** The call's own progress notifications (the SDK routes them by the call's progress token). */
  progress(progress: Progress): void;
}

/** What our client tells servers it can do: forms (filling in the schema's defaults the user left out, as SEP-1034
 * asks) and URLs for the user, and our model. */
export const CLIENT_CAPABILITIES = { elicitation: { form: { applyDefaults: true }, url: {} }, sampling: {} };

/** A client whose server requests go to whichever call holds its session now (`host()`). */
export function clientWithHost(
  info: { name: string; version: string },
  host: () => CallHost | null,
  onToolsChanged: () => void,
): Client {
  const client = new Client(info, {
    capabilities: CLIENT_CAPABILITIES,
    // tools/list_changed only invalidates the catalog; discovery re-lists (and paginates) itself.
    listChanged: { tools: { onChanged: onToolsChanged, autoRefresh: false, debounceMs: 0 } },
  });
  const held = (what: string): CallHost => {
    const h = host();
    if (!h) throw new McpError(ErrorCode.InvalidRequest, `${what} is only answered during a tool call`);
    return h;
  };
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    held('elicitation').elicit(request.params, extra.signal),
  );
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
    held('sampling').sample(request.params, extra.signal),
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => host()?.log(n.params));
  return client;
}

/** Refuses what needs a person or a model: for calls made outside a conversation (tests, benchmarks, probes). */
export const NO_HOST: CallHost = {
  elicit: async () => ({ action: 'decline' }),
  sample: async () => {
    throw new McpError(ErrorCode.InvalidRequest, 'sampling is not available outside a conversation');
  },
  log: () => undefined,
  progress: () => undefined,
};

/**
 * A call's time limit (the endpoint's `timeoutMs`) that stops while the user is being asked — a person may take
 * minutes, TOOL_QUESTION_TIMEOUT bounds that — and starts again on each progress notification, as a long operation
 * that reports progress is alive.
 */
export class CallDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private asking = 0;

  /** Not running until `restart()`: the call starts it once it has its session. */
  constructor(private readonly ms: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  restart(): void {
    clearTimeout(this.timer);
    if (this.asking === 0 && !this.expired) this.timer = setTimeout(() => this.controller.abort(), this.ms);
  }

  async whileAsking<T>(work: Promise<T>): Promise<T> {
    this.asking++;
    clearTimeout(this.timer);
    try {
      return await work;
    } finally {
      this.asking--;
      this.restart();
    }
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  /** The host the server talks to during the call, with this deadline paused while the user is asked. */
  around(host: CallHost): CallHost {
    return {
      elicit: (params, signal) => this.whileAsking(host.elicit(params, signal)),
      sample: (params, signal) => this.whileAsking(host.sample(params, signal)),
      log: (params) => host.log(params),
      progress: (progress) => {
        this.restart();
        host.progress(progress);
      },
    };
  }
}
