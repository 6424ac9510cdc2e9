// The readers as one service: what a file is (from its content), its description for history, and a window of it.
// Everything refused is refused with a FileRefusal whose words the user and the model read.
import type { BlobFacts, BlobRead, BlobWindow } from '../core/blobs';
import { PREVIEW_CHARS, formatBytes } from '../core/blobs';
import { csvReader } from './csv';
import { TYPE_WORDS, detectType as detect, type DetectedType } from './detect-type';
import { imageReader } from './image';
import { jsonReader } from './json';
import { DEFAULT_READER_LIMITS, type ReaderLimits } from './limits';
import { pdfReader } from './pdf';
import { FileRefusal, type FileReader } from './reader';
import { textReader } from './text';
import { xlsxReader } from './xlsx';

export { FileRefusal, type FileReader } from './reader';
export { DEFAULT_READER_LIMITS, READER_SETTING_NAMES, readerLimitsFromEnv, type ReaderLimits } from './limits';
export { TYPES, type DetectedType } from './detect-type';

function readers(limits: ReaderLimits): FileReader[] {
  return [pdfReader(limits), csvReader, xlsxReader(limits), jsonReader, textReader, imageReader];
}

function checkSize(bytes: Uint8Array, limits: ReaderLimits, name = 'the file'): void {
  if (bytes.length > limits.maxBytes) {
    throw new FileRefusal(
      `${name} is ${formatBytes(bytes.length)}, over the ${formatBytes(limits.maxBytes)} a reader opens (READER_MAX_BYTES)`,
    );
  }
}

/** The media type found in the content, with a note when the name claims another. */
export function detectType(bytes: Uint8Array, name: string, limits = DEFAULT_READER_LIMITS): DetectedType {
  checkSize(bytes, limits, name);
  return detect(bytes, name);
}

/** The reader of a media type; refuses a type none reads. */
export function readerFor(type: string, limits = DEFAULT_READER_LIMITS): FileReader {
  const reader = readers(limits).find((r) => r.types.includes(type));
  if (!reader) throw new FileRefusal(`not a file type I can read: ${type}`);
  return reader;
}

export interface FileDescription {
  type: string;
  /** At most PREVIEW_CHARS; starts with the note when the name and the content disagree. */
  preview: string;
  facts: BlobFacts;
  note?: string;
}

/** What a file is and its description for history: type, preview, facts. */
export async function describeFile(
  bytes: Uint8Array,
  name: string,
  limits = DEFAULT_READER_LIMITS,
): Promise<FileDescription> {
  const { type, note } = detectType(bytes, name, limits);
  const { preview, facts } = await readerFor(type, limits).describe(bytes);
  const text = note ? `(${note})\n${preview}` : preview;
  return { type, preview: text.slice(0, PREVIEW_CHARS), facts, ...(note ? { note } : {}) };
}

/** A window of a stored file whose type was found before (BlobRef.type). */
export async function readWindow(
  bytes: Uint8Array,
  type: string,
  window: BlobWindow,
  maxChars: number,
  limits = DEFAULT_READER_LIMITS,
): Promise<Omit<BlobRead, 'id'>> {
  checkSize(bytes, limits);
  if (!(maxChars > 0)) throw new FileRefusal(`maxChars must be positive, not ${maxChars}`);
  const read = await readerFor(type, limits).read(bytes, window, maxChars);
  return { type, ...read };
}

/** "a PDF", "a CSV table": a type in words. */
export function typeInWords(type: string): string {
  return TYPE_WORDS[type] ?? type;
}
