// Exactly-once for native tools that change state. Temporal retries an activity after a timeout or a worker crash,
// possibly after the tool already acted. So the result of each call is recorded in the same store as its effect,
// under a key that is the same on every retry of that activity, and both are persisted in one atomic write: a retry
// finds the record and answers with it instead of acting again.
import type { MockStore } from './define-tool';
import { seeded } from './mock-data';
import type { BlobRef } from '../core/blobs';

interface Entry {
  tool: string;
  result: unknown;
  /** A result kept whole in the blob store: its reference (the result is then its preview). */
  stored?: BlobRef;
  at: string;
}

const LEDGER = 'effect-ledger';
/** Retries come within minutes of the first attempt; thousands of calls later, a record is no longer needed. */
const KEPT = 5_000;

/** The recorded result of the call with this key, if it already ran to completion. */
export function recordedEffect(store: MockStore, key: string): { result: unknown; stored?: BlobRef } | undefined {
  const entry = ledger(store)[key];
  return entry ? { result: entry.result, ...(entry.stored ? { stored: entry.stored } : {}) } : undefined;
}

/** Records a completed call; the caller persists the store, so the effect and its record land together. */
export function recordEffect(
  store: MockStore,
  key: string,
  tool: string,
  result: unknown,
  at: Date,
  stored?: BlobRef,
): void {
  const entries = ledger(store);
  entries[key] = {
    tool,
    result: result === undefined ? null : result,
    ...(stored ? { stored } : {}),
    at: at.toISOString(),
  };
  const keys = Object.keys(entries);
  for (const old of keys.slice(0, Math.max(0, keys.length - KEPT))) delete entries[old];
}

function ledger(store: MockStore): Record<string, Entry> {
  return seeded<Record<string, Entry>>(store, LEDGER, {});
}
