// How chunks are stored in a Redis Stream: one entry per chunk, its fields flat as Redis returns them.
import type { StreamChunk } from './bus';

export type Entry = [id: string, fields: string[]];

export const KEY_PREFIX = 'agent:stream:';

export const keyOf = (conversationId: string): string => KEY_PREFIX + conversationId;

export function fieldsOf(chunk: StreamChunk): string[] {
  const fields = ['kind', chunk.kind, 'attempt', chunk.attempt];
  if (chunk.kind === 'delta') return [...fields, 'text', chunk.text];
  if (chunk.kind === 'progress') return [...fields, 'progress', JSON.stringify(chunk)];
  return fields;
}

/** The chunk an entry holds; undefined for an entry this version does not understand (skipped, not fatal). */
export function chunkOf(fields: string[]): StreamChunk | undefined {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  if (!f.attempt) return undefined;
  if (f.kind === 'delta') return { kind: 'delta', attempt: f.attempt, text: f.text ?? '' };
  if (f.kind === 'done' || f.kind === 'discard') return { kind: f.kind, attempt: f.attempt };
  if (f.kind === 'progress' && f.progress) {
    try {
      return { ...(JSON.parse(f.progress) as StreamChunk), kind: 'progress', attempt: f.attempt } as StreamChunk;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Orders stream entry ids (`<ms>-<seq>`); negative when `a` comes first. */
export function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
}
