// The files a message will carry, before it is sent: each uploads at once (its progress), is ready (its stored
// reference) or was refused (the API's words, or ours when the file is over a limit already known). A pure reducer,
// so the composer only dispatches. The size limit is the API's FILE_MAX_MB, learned from its first 413 answer.
import type { BlobRef } from '../core/blobs';
import { formatBytes } from '../core/blobs';

/** Most files one message may carry: the API's MAX_ATTACHMENTS (core/messages.ts, which the browser cannot import:
 * it declares the workflow's messages with Temporal's SDK). */
export const MAX_FILES = 10;

export interface PendingFile {
  key: number;
  name: string;
  size: number;
  status: 'uploading' | 'ready' | 'refused';
  /** Bytes sent so far, while uploading. */
  sent: number;
  ref?: BlobRef;
  /** Why it was refused, in words. */
  error?: string;
}

export type AttachAction =
  | { type: 'add'; key: number; name: string; size: number; refused?: string }
  | { type: 'progress'; key: number; sent: number }
  | { type: 'ready'; key: number; ref: BlobRef }
  | { type: 'refused'; key: number; error: string }
  | { type: 'remove'; key: number }
  | { type: 'clear' };

export function reduceFiles(files: PendingFile[], a: AttachAction): PendingFile[] {
  const update = (key: number, change: Partial<PendingFile>) =>
    files.map((f) => (f.key === key ? { ...f, ...change } : f));
  switch (a.type) {
    case 'add':
      return [
        ...files,
        {
          key: a.key,
          name: a.name,
          size: a.size,
          sent: 0,
          ...(a.refused ? { status: 'refused', error: a.refused } : { status: 'uploading' }),
        },
      ];
    case 'progress':
      return update(a.key, { sent: a.sent });
    case 'ready':
      return update(a.key, { status: 'ready', sent: a.ref.size, ref: a.ref });
    case 'refused':
      return update(a.key, { status: 'refused', error: a.error });
    case 'remove':
      return files.filter((f) => f.key !== a.key);
    case 'clear':
      return [];
  }
}

/** Why a file cannot be attached before any byte is sent (a limit known already), or null. */
export function refusalBefore(
  file: { name: string; size: number },
  counted: number,
  maxBytes: number | null,
): string | null {
  if (counted >= MAX_FILES) return `A message carries at most ${MAX_FILES} files; send these first.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (maxBytes !== null && file.size > maxBytes)
    return `${file.name} is ${formatBytes(file.size)}, over the ${limitWords(maxBytes)} a file may be (FILE_MAX_MB).`;
  return null;
}

/** A limit as the API says it (`25 MB`, `0.5 MB`), not as a file's size is shown (`25.0 MB`). */
export function limitWords(bytes: number): string {
  return `${Number((bytes / 1024 ** 2).toFixed(2))} MB`;
}

/** The per-file limit an API's 413 states ("… over the 25 MB a file may be (FILE_MAX_MB)."), in bytes, or null. */
export function limitFromRefusal(message: string): number | null {
  const m = /over the ([\d.]+) (B|KB|MB|GB) a file may be/.exec(message);
  if (!m) return null;
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[m[2] as 'B' | 'KB' | 'MB' | 'GB'];
  return Math.round(Number(m[1]) * unit);
}

/** What the files in the list amount to: whether one still uploads, and the stored ones to send. */
export function summary(files: PendingFile[]): { uploading: boolean; refs: BlobRef[] } {
  return {
    uploading: files.some((f) => f.status === 'uploading'),
    refs: files.flatMap((f) => (f.status === 'ready' && f.ref ? [f.ref] : [])),
  };
}
