// The stream bus carries the reply being written, chunk by chunk, from the planning activity to whoever shows it
// (the HTTP API's SSE). It is a side channel: only the complete reply enters the workflow's history, so losing a
// chunk costs a flicker, never a message. Hence publish is fire-and-forget and never slows the model call.

import type { ToolProgress } from '../core/tool-questions';

export type StreamChunk =
  | { kind: 'delta'; attempt: string; text: string } // text delta of the reply being written
  | { kind: 'discard'; attempt: string } // this attempt's partial text is void (it failed; a retry follows)
  | { kind: 'done'; attempt: string } // the attempt finished; its complete message enters history
  | ToolProgressChunk;

/** A running tool's progress or log message, on its way to the screens. */
export type ToolProgressChunk = ToolProgress & { kind: 'progress' };

export interface StreamBus {
  /** Fire-and-forget: never throws, never slows the model call (errors are logged once). */
  publish(conversationId: string, chunk: StreamChunk): void;
  /** Chunks of the attempt in progress first (so a late subscriber sees the partial text), then live ones. */
  subscribe(conversationId: string, listener: (chunk: StreamChunk) => void): () => void;
  close(): Promise<void>;
}

/** Which run of the planning activity wrote a chunk: `${workflowRunId}/${activityId}/${attemptNumber}`. */
export interface AttemptId {
  runId: string;
  activityId: string;
  attempt: number;
}

export function attemptKey({ runId, activityId, attempt }: AttemptId): string {
  return `${runId}/${activityId}/${attempt}`;
}

/** Calls a listener so that one that throws cannot stop the others, nor the bus. */
export function deliver(listener: (chunk: StreamChunk) => void, chunk: StreamChunk): void {
  try {
    listener(chunk);
  } catch (err) {
    console.warn(`warning: a stream listener failed: ${(err as Error).message}`);
  }
}
