// What a file is, found in its content — magic numbers, a ZIP's directory, whether the text parses — never in its
// name. The name is only compared: a report.csv that is a PDF is read as a PDF, with a note saying so. The one place
// the name helps is between text kinds the content cannot tell apart (a one-column CSV looks like plain text).
import { FileRefusal } from './reader';
import { looksLikeZip, zipEntries } from './zip';

export const TYPES = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  json: 'application/json',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  markdown: 'text/markdown',
  text: 'text/plain',
} as const;

/** A type in a few words: "a PDF", "a CSV table". */
export const TYPE_WORDS: Record<string, string> = {
  [TYPES.pdf]: 'a PDF',
  [TYPES.xlsx]: 'an XLSX workbook',
  [TYPES.png]: 'a PNG image',
  [TYPES.jpeg]: 'a JPEG image',
  [TYPES.gif]: 'a GIF image',
  [TYPES.webp]: 'a WebP image',
  [TYPES.json]: 'JSON',
  [TYPES.csv]: 'a CSV table',
  [TYPES.tsv]: 'a TSV table',
  [TYPES.markdown]: 'Markdown',
  [TYPES.text]: 'plain text',
};

const BY_EXTENSION: Record<string, string> = {
  pdf: TYPES.pdf,
  xlsx: TYPES.xlsx,
  png: TYPES.png,
  jpg: TYPES.jpeg,
  jpeg: TYPES.jpeg,
  gif: TYPES.gif,
  webp: TYPES.webp,
  json: TYPES.json,
  csv: TYPES.csv,
  tsv: TYPES.tsv,
  md: TYPES.markdown,
  markdown: TYPES.markdown,
  txt: TYPES.text,
};

export interface DetectedType {
  type: string;
  /** When the name claims another type: "report.csv is a PDF". */
  note?: string;
}

/** The media type of the bytes; refuses, in words, what no reader reads. */
export function detectType(bytes: Uint8Array, name: string): DetectedType {
  const type = fromContent(bytes);
  const claimed = BY_EXTENSION[/\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? ''];
  if (!claimed || claimed === type) return { type };
  // Text the content cannot place more precisely may be what its name says: a one-column CSV, Markdown without marks.
  if (type === TYPES.text && [TYPES.csv, TYPES.tsv, TYPES.markdown].includes(claimed as never))
    return { type: claimed };
  return { type, note: `${name} is ${TYPE_WORDS[type]}, not ${TYPE_WORDS[claimed]}: read as ${TYPE_WORDS[type]}` };
}

function fromContent(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new FileRefusal('an empty file: there is nothing to read');
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));
  // A PDF's header may follow a little junk (readers accept it within the first 1,024 bytes), on a line of its own.
  if (/(^|[\r\n])%PDF-\d\.\d/.test(Buffer.from(bytes.subarray(0, 1024)).toString('latin1'))) return TYPES.pdf;
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return TYPES.png;
  if (starts(0xff, 0xd8, 0xff)) return TYPES.jpeg;
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return TYPES.gif;
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return TYPES.webp;
  if (looksLikeZip(bytes)) return zipType(bytes);
  const binary = binaryKind(bytes);
  if (binary) throw new FileRefusal(`not a file type I can read: ${binary}`);
  const text = decodeText(bytes);
  if (text === null) {
    throw new FileRefusal(
      'not a file type I can read: binary data that is not a PDF, an XLSX workbook, an image (PNG, JPEG, GIF, WebP) or text',
    );
  }
  return textType(text);
}

function zipType(bytes: Uint8Array): string {
  const names = zipEntries(bytes)?.map((e) => e.name);
  if (!names) throw new FileRefusal('not a file type I can read: a damaged ZIP archive (no central directory)');
  if (names.includes('xl/workbook.xml')) return TYPES.xlsx;
  if (names.includes('word/document.xml')) throw new FileRefusal('not a file type I can read: a Word document (.docx)');
  if (names.includes('ppt/presentation.xml'))
    throw new FileRefusal('not a file type I can read: a PowerPoint deck (.pptx)');
  throw new FileRefusal('not a file type I can read: a ZIP archive (only XLSX workbooks are unpacked)');
}

/** Well-known binary formats, named so the refusal says what the file is. */
function binaryKind(bytes: Uint8Array): string | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) return 'an old Office file (.xls, .doc or .ppt): save it as XLSX, PDF or text';
  if (starts(0x1f, 0x8b)) return 'a gzip archive';
  if (starts(0x7f, 0x45, 0x4c, 0x46)) return 'an executable (ELF)';
  if (starts(0x4d, 0x5a)) return 'an executable (Windows)';
  if (starts(0x42, 0x4d)) return 'a BMP image (PNG, JPEG, GIF and WebP are read)';
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a))
    return 'a TIFF image (PNG, JPEG, GIF and WebP are read)';
  return undefined;
}

/**
 * The bytes as text, or null: UTF-8, or UTF-16 when a byte-order mark says so (Excel's "Unicode text" export), the mark
 * dropped; text with NULs is taken for binary.
 */
export function decodeText(bytes: Uint8Array): string | null {
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  if (encoding === 'utf-8' && bytes.includes(0)) return null;
  try {
    const text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    return encoding === 'utf-8' || !text.includes('\0') ? text : null;
  } catch {
    return null;
  }
}

function textType(text: string): string {
  const trimmed = text.trimStart();
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && parses(trimmed)) return TYPES.json;
  const lines = text.split(/\r?\n/, 21).slice(0, 20);
  // The sample's last line may be cut short unless the whole text fits in it.
  const sample = (lines.length === 20 ? lines.slice(0, -1) : lines).filter((l) => l.trim() !== '');
  if (sample.some((l) => /^(#{1,6}\s|```|\s*\|?\s*:?-{3,}:?\s*\|)/.test(l))) return TYPES.markdown;
  const delimiter = tableDelimiter(sample);
  if (delimiter === '\t') return TYPES.tsv;
  if (delimiter) return TYPES.csv;
  const marks = sample.filter((l) => /^\s*([-*+]\s|\d+\.\s|>\s)|\[[^\]]+\]\([^)]+\)|\*\*[^*]+\*\*/.test(l)).length;
  return marks >= 2 ? TYPES.markdown : TYPES.text;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The delimiter every sample line has the same number of (outside quotes), at least once: a table. Two lines with one
 * comma each are as likely prose ("Yes, sure.\nOK, done."), so two lines need two delimiters each.
 */
function tableDelimiter(lines: string[]): string | undefined {
  if (lines.length < 2) return undefined;
  for (const delimiter of ['\t', ',', ';']) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    const steady = counts[0] > 0 && counts.every((c) => c === counts[0]);
    if (steady && (lines.length >= 3 || counts[0] >= 2)) return delimiter;
  }
  return undefined;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === delimiter && !quoted) count++;
  }
  return count;
}
