// How much a file and a conversation may hold (FILE_MAX_MB, CONVERSATION_FILES_MAX_MB), and the refusals that say so
// in words naming the setting. Every store and every way in (the API's body limit, the CLI) asks the same limits.
import { formatBytes } from '../core/blobs';
import { FileRefusal } from '../readers/reader';

export interface BlobLimits {
  /** The largest file (FILE_MAX_MB), in bytes. */
  fileMaxBytes: number;
  /** The most a conversation may hold in files (CONVERSATION_FILES_MAX_MB), in bytes. */
  conversationMaxBytes: number;
}

export const DEFAULT_FILE_MAX_MB = 25;
export const DEFAULT_CONVERSATION_FILES_MAX_MB = 200;
const MB = 1024 * 1024;

export const DEFAULT_BLOB_LIMITS: BlobLimits = {
  fileMaxBytes: DEFAULT_FILE_MAX_MB * MB,
  conversationMaxBytes: DEFAULT_CONVERSATION_FILES_MAX_MB * MB,
};

/** A file refused for its size: the API answers it with 413, other refusals with 422. */
export class FileTooLarge extends FileRefusal {}

/** Refuses a file over FILE_MAX_MB. */
export function checkFileSize(limits: BlobLimits, name: string, size: number): void {
  if (size > limits.fileMaxBytes) throw new FileTooLarge(fileTooLargeMessage(limits, name, size));
}

export function fileTooLargeMessage(limits: BlobLimits, name: string, size?: number): string {
  const what = size === undefined ? `${name} is` : `${name} is ${formatBytes(size)},`;
  return `${what} over the ${megabytes(limits.fileMaxBytes)} a file may be (FILE_MAX_MB).`;
}

/** Refuses a file that would take a conversation's files over CONVERSATION_FILES_MAX_MB. */
export function checkConversationRoom(limits: BlobLimits, name: string, size: number, heldBytes: number): void {
  if (heldBytes + size <= limits.conversationMaxBytes) return;
  throw new FileTooLarge(
    `${name} (${formatBytes(size)}) would bring this conversation's files to ${formatBytes(heldBytes + size)}, ` +
      `over the ${megabytes(limits.conversationMaxBytes)} a conversation may hold (CONVERSATION_FILES_MAX_MB).`,
  );
}

function megabytes(bytes: number): string {
  return `${Number((bytes / MB).toFixed(2))} MB`;
}
