// What a reader of one kind of file does: says what the bytes are, describes them for history (a preview and facts),
// and reads a window of them on request. One file per kind (pdf, csv, xlsx, json, text, image) implements it;
// readers/index.ts picks one by the type found in the content, never by the file name.
import type { BlobFacts, BlobRead, BlobWindow } from '../core/blobs';

export interface FileReader {
  /** The media types it reads. */
  types: string[];
  /** A preview (at most PREVIEW_CHARS) and facts; refuses with a FileRefusal what it will not read. */
  describe(bytes: Uint8Array): Promise<{ preview: string; facts: BlobFacts }>;
  /** A window of the content (at most `maxChars` of text); refuses a window it cannot serve, in words. */
  read(bytes: Uint8Array, window: BlobWindow, maxChars: number): Promise<Omit<BlobRead, 'id' | 'type'>>;
}

/** A file refused, in words the user and the model read (too big, a zip bomb, malformed, not what it claims). */
export class FileRefusal extends Error {
  override readonly name = 'FileRefusal';
}
