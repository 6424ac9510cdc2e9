// The run view's side of the HTTP API (api/run-routes.ts): GET /api/conversations/{id}/run/events sends the whole
// tree as a `run` event on open and whenever it changes, and closes once every workflow in it has ended. One
// EventSource, with the stored key in the query as the conversation's own events carry it.
import type { RunView } from '../core/run-view';
import { ApiError, apiKey } from './api';

export type { RunView };

export interface RunHandlers {
  onView(view: RunView): void;
  /** The server could not read the run (its `error` event). */
  onError(message: string): void;
  /** The connection dropped and the browser is reconnecting (false), or is up again (true). */
  onLink(up: boolean): void;
  /** The server refused or ended the stream (after the last view, or 401/404/5xx): the caller decides what next. */
  onClosed(): void;
}

/** The run read once (GET /api/conversations/{id}/run): also how a closed stream learns why (401, 404). */
export async function readRun(id: string): Promise<RunView> {
  const key = apiKey.get();
  let res: Response;
  try {
    res = await fetch(`/api/conversations/${encodeURIComponent(id)}/run`, {
      headers: { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    });
  } catch (err) {
    throw new ApiError(`Cannot reach the API (${(err as Error).message}).`, 0);
  }
  const data = (await res.json().catch(() => null)) as (RunView & { error?: string }) | null;
  if (!res.ok) throw new ApiError(data?.error ?? `${res.status} ${res.statusText}`.trim(), res.status);
  return data!;
}

/** Follows a conversation's run; returns the function that closes the stream. */
export function openRun(id: string, handlers: RunHandlers): () => void {
  const key = apiKey.get();
  const query = key ? `?key=${encodeURIComponent(key)}` : '';
  const source = new EventSource(`/api/conversations/${encodeURIComponent(id)}/run/events${query}`);
  source.addEventListener('run', (e) => handlers.onView(JSON.parse((e as MessageEvent<string>).data) as RunView));
  source.addEventListener('open', () => handlers.onLink(true));
  // `error` is both the server's event (with data) and the browser's own report of a failed connection.
  source.addEventListener('error', (e) => {
    if (e instanceof MessageEvent && typeof e.data === 'string') {
      handlers.onError((JSON.parse(e.data) as { message?: string }).message ?? 'The run could not be read.');
    } else if (source.readyState === EventSource.CLOSED) {
      handlers.onClosed();
    } else {
      handlers.onLink(false);
    }
  });
  return () => source.close();
}
