// The browser's side of the HTTP API (api/app.ts): requests carry the stored key, errors arrive as ApiError with
// the server's message, a 401 tells whoever listens (the key prompt), and the live events come from one EventSource.
export * from './api-types';
import type { EndpointFeatures, PromptRef } from '../core/mcp-features';
import type {
  Conversation,
  Started,
  LiveEvent,
  AgentsDescription,
  AgentListing,
  EndpointListing,
  ToolListing,
  BlobRef,
  CatalogSummary,
  ConfirmDecision,
  ConversationSummary,
  MadeToolSummary,
  QuestionAnswer,
  ToolSpec,
  AgentReply,
  Schedule,
  ScheduleRequest,
  TriggerList,
  Memory,
  MemoryDetail,
} from './api-types';
import type { WhileBusy } from '../core/types';

export class ApiError extends Error {
  constructor(
    message: string,
    /** 0 when the API could not be reached at all. */
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
  }
}

const KEY_ITEM = 'agent-orchestrator.api-key';

/** The API key, kept in localStorage (absent when the API runs without API_KEYS). */
export const apiKey = {
  get(): string | null {
    try {
      return localStorage.getItem(KEY_ITEM);
    } catch {
      return null;
    }
  },
  set(key: string): void {
    localStorage.setItem(KEY_ITEM, key);
  },
};

const unauthorized = new Set<() => void>();

/** Calls `listener` whenever the API answers 401; returns the unsubscribe function. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorized.add(listener);
  return () => {
    unauthorized.delete(listener);
  };
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function authHeaders(): Record<string, string> {
  const key = apiKey.get();
  return key ? { authorization: `Bearer ${key}` } : {};
}

async function request<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(`Cannot reach the API (${(err as Error).message}).`, 0);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): the status line says enough.
  }
  if (!res.ok) throw refusal(res.status, res.statusText, data);
  return data as T;
}

/** The API's refusal as an ApiError with its words (telling the key prompt of a 401). */
function refusal(status: number, statusText: string, data: unknown): ApiError {
  if (status === 401) for (const listener of unauthorized) listener();
  const err = data as { error?: unknown; field?: unknown } | null;
  const message = typeof err?.error === 'string' ? err.error : `${status} ${statusText}`.trim();
  return new ApiError(message, status, typeof err?.field === 'string' ? err.field : undefined);
}

const conv = (id: string, rest = '') => `/conversations/${encodeURIComponent(id)}${rest}`;
const schedule = (name: string, rest = '') => `/schedules/${encodeURIComponent(name)}${rest}`;
const memory = (id: string) => `/memories/${encodeURIComponent(id)}`;

export const api = {
  agents: () => request<AgentsDescription>('GET', '/agents'),
  conversations: () => request<ConversationSummary[]>('GET', '/conversations'),
  conversation: (id: string) => request<Conversation>('GET', conv(id)),
  /** No goal: the worker's default agent (AGENT_GOAL). */
  start: (goalId?: string) => request<Started>('POST', '/conversations', goalId ? { goalId } : {}),
  /** What a file may weigh (FILE_MAX_MB): stated before any upload, so a bigger file is refused without sending it. */
  fileLimits: () =>
    request<{ fileMaxBytes: number; conversationMaxBytes: number; maxFiles: number }>('GET', '/files/limits'),
  /** `files`: ids of files uploaded for this conversation (uploadFile). */
  /** `whileBusy`: what the message does if the agent is working (absent: the agent's setting). */
  say: (id: string, text: string, files: string[] = [], whileBusy?: WhileBusy) =>
    request<unknown>('POST', conv(id, '/messages?wait=false'), {
      text,
      ...(files.length ? { files } : {}),
      ...(whileBusy ? { whileBusy } : {}),
    }),
  confirm: (id: string, decision: ConfirmDecision) =>
    request<unknown>('POST', conv(id, '/confirm?wait=false'), decision),
  /** Waits for the agent's next reply; the events show the question go meanwhile. */
  answer: (id: string, questionId: string, answer: QuestionAnswer) =>
    request<AgentReply>('POST', conv(id, '/answer'), { questionId, ...answer }),
  cancel: (id: string) => request<AgentReply>('POST', conv(id, '/cancel')),
  endpoints: () => request<CatalogSummary>('GET', '/endpoints'),
  /** The registry pages: every agent, tool and endpoint with its usage from Temporal (`since`: 7d, 24h; default 30d). */
  agentsStats: (since?: string) => request<AgentListing>('GET', `/agents?stats=1${sinceParam(since)}`),
  toolsStats: (since?: string) => request<ToolListing>('GET', `/tools?stats=1${sinceParam(since)}`),
  endpointsStats: (since?: string) => request<EndpointListing>('GET', `/endpoints?stats=1${sinceParam(since)}`),
  /** Where to send the user to connect an MCP server that needs OAuth (their owner: the stored key's). */
  connect: (endpoint: string) =>
    request<{ authorizationUrl: string }>('GET', `/endpoints/${encodeURIComponent(endpoint)}/connect?redirect=false`),
  /** No goal: every MCP tool. */
  tools: (goalId?: string) =>
    request<ToolSpec[]>('GET', goalId ? `/tools?goal=${encodeURIComponent(goalId)}` : '/tools'),
  /** Every version of every made tool, with its code, provenance and usage. */
  madeTools: () => request<MadeToolSummary[]>('GET', '/made-tools?usage=true'),
  /** An MCP endpoint's resources and resource templates, and its prompts (what the server does not offer: `unsupported`). */
  endpointResources: (name: string) =>
    request<Pick<EndpointFeatures, 'resources' | 'templates' | 'unsupported'>>('GET', `${endpoint(name)}/resources`),
  endpointPrompts: (name: string) =>
    request<Pick<EndpointFeatures, 'prompts' | 'unsupported'>>('GET', `${endpoint(name)}/prompts`),
  /** A conversation opened by an MCP server's prompt (its messages first) instead of the goal's starter. */
  startWithPrompt: (prompt: PromptRef, goalId?: string) =>
    request<Started>('POST', '/conversations', { ...(goalId ? { goalId } : {}), prompt }),
  /** The caller's schedules (Temporal Schedules of agent runs); one with its latest runs and their outcomes. */
  schedules: () => request<{ schedules: Schedule[] }>('GET', '/schedules'),
  schedule: (name: string) => request<Schedule>('GET', schedule(name)),
  createSchedule: (req: ScheduleRequest) => request<Schedule>('POST', '/schedules', req),
  pauseSchedule: (name: string, pause: boolean, note?: string) =>
    request<Schedule>('POST', schedule(name, pause ? '/pause' : '/unpause'), note ? { note } : {}),
  /** A run now (the schedule's overlap policy still applies). */
  triggerSchedule: (name: string) => request<unknown>('POST', schedule(name, '/trigger')),
  deleteSchedule: (name: string) => request<unknown>('DELETE', schedule(name)),
  /** The caller's memories (an admin key's: every owner's, or `owner`'s), newest first, or those matching `q`. */
  memories: (query: { q?: string; owner?: string; limit: number; offset?: number }) =>
    request<{ memories: Memory[] }>('GET', `/memories?${memoryQuery(query)}`),
  /** One memory, and the conversations whose turns were shown it (`uses`, from APIs that say it). */
  memory: (id: string) => request<MemoryDetail>('GET', memory(id)),
  editMemory: (id: string, change: { text?: string; tags?: string[] }) =>
    request<{ memory: Memory }>('PATCH', memory(id), change),
  deleteMemory: (id: string) => request<{ deleted: string }>('DELETE', memory(id)),
  /** A proposed memory kept: recalled from now on (dismissing one is deleting it). */
  keepMemory: (id: string) => request<{ memory: Memory }>('POST', `${memory(id)}/keep`),
  /** The webhook triggers of the registry file, each with its latest runs. An API without the route (the page's HTML
   * comes back, not JSON) has none. */
  triggers: async () => (await request<TriggerList | null>('GET', '/triggers')) ?? { triggers: [] },
};

/**
 * Uploads a file for a conversation (POST /api/files, the raw bytes), reporting the bytes sent as they go: through
 * XMLHttpRequest, since fetch reports no upload progress. Resolves to the stored file; refusals are ApiErrors.
 */
export function uploadFile(
  file: File,
  conversationId: string,
  onProgress: (sent: number) => void,
): { done: Promise<BlobRef>; abort(): void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<BlobRef>((resolve, reject) => {
    const query = `conversationId=${encodeURIComponent(conversationId)}&name=${encodeURIComponent(file.name)}`;
    xhr.open('POST', `/api/files?${query}`);
    xhr.setRequestHeader('accept', 'application/json');
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (e) => onProgress(e.loaded));
    xhr.addEventListener('load', () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        // Not JSON (a proxy's error page): the status line says enough.
      }
      if (xhr.status === 201) resolve(data as BlobRef);
      else reject(refusal(xhr.status, xhr.statusText, data));
    });
    xhr.addEventListener('error', () =>
      reject(new ApiError('The upload stopped: the connection to the API closed.', 0)),
    );
    xhr.addEventListener('abort', () => reject(new ApiError('The upload was cancelled.', 0)));
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}

/** Where a stored file's bytes are read (GET /api/files/{id}/content). */
export const fileContentPath = (id: string) => `/api/files/${encodeURIComponent(id)}/content`;

/**
 * Downloads a stored file when the API needs a key: a link cannot send the Authorization header, so the bytes are
 * fetched with it and handed to the browser as the file.
 */
export async function downloadFile(ref: Pick<BlobRef, 'id' | 'name'>): Promise<void> {
  const res = await fetch(fileContentPath(ref.id), { headers: authHeaders() });
  if (!res.ok) {
    const text = await res.text();
    let data: unknown = null;
    try {
      data = JSON.parse(text);
    } catch {
      // Not JSON.
    }
    throw refusal(res.status, res.statusText, data);
  }
  const url = URL.createObjectURL(await res.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: ref.name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const endpoint = (name: string) => `/endpoints/${encodeURIComponent(name)}`;
const sinceParam = (since?: string) => (since ? `&since=${encodeURIComponent(since)}` : '');
/** GET /api/memories's query: only what is set. */
const memoryQuery = (query: { q?: string; owner?: string; limit: number; offset?: number }) =>
  new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString();

export interface EventHandlers {
  onEvent(e: LiveEvent): void;
  /** The connection dropped and the browser is reconnecting (false), or is up again (true). */
  onLink(up: boolean): void;
  /** The server refused or ended the stream for good (401, 404, 5xx): the caller decides whether to reopen. */
  onClosed(): void;
}

const NAMES = ['message', 'token', 'discard', 'approval', 'question', 'tool_progress', 'state'] as const;

/**
 * Follows a conversation's events from message `since` on. The browser reconnects by itself after a network
 * failure and sends the last event id, so the server resumes where it was. Returns the function that closes it.
 */
export function openEvents(id: string, since: number, handlers: EventHandlers): () => void {
  const key = apiKey.get();
  const query = `since=${since}${key ? `&key=${encodeURIComponent(key)}` : ''}`;
  const source = new EventSource(`/api${conv(id, '/events')}?${query}`);
  for (const name of NAMES) {
    source.addEventListener(name, (e) =>
      handlers.onEvent({ event: name, data: JSON.parse((e as MessageEvent<string>).data) } as LiveEvent),
    );
  }
  source.addEventListener('open', () => handlers.onLink(true));
  // `error` is both the server's event (with data) and the browser's own report of a failed connection.
  source.addEventListener('error', (e) => {
    if (e instanceof MessageEvent && typeof e.data === 'string') {
      handlers.onEvent({ event: 'error', data: JSON.parse(e.data) });
    } else if (source.readyState === EventSource.CLOSED) {
      handlers.onClosed();
    } else {
      handlers.onLink(false);
    }
  });
  return () => source.close();
}
