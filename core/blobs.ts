// Conversation data kept whole outside history (the claim check): files people attach, and tool results or replies
// too big for a workflow's history. History carries a reference — the content's sha256, its size and type, a short
// preview and what a reader found (pages, rows, columns) — and the agent reads more a window at a time (ReadFile).

/** A stored file or result, as history and the model see it. */
export interface BlobRef {
  /** sha256 of the bytes, hex: the same content is stored once. */
  id: string;
  /** Bytes. */
  size: number;
  /** The media type found in the content (not taken from a file name): `application/pdf`, `text/csv`, `image/png`, … */
  type: string;
  /** The name it came with (an attachment's file name; a tool result's `<tool> result`). */
  name: string;
  /** The start of its text as a reader gives it (at most PREVIEW_CHARS): what the model sees without reading. */
  preview: string;
  /** What a reader found: pages, rows and columns, sheets. */
  facts?: BlobFacts;
}

export interface BlobFacts {
  pages?: number;
  rows?: number;
  columns?: string[];
  sheets?: string[];
  /** Characters of text (text, JSON, Markdown). */
  chars?: number;
  /** Images: pixels. */
  width?: number;
  height?: number;
}

/**
 * Which part of a stored file to read (ReadFile's arguments beside the id): a window of characters, pages, rows of a
 * table (of a sheet), or a query — a JSONPath into JSON, a filter on a table's column.
 */
export interface BlobWindow {
  offset?: number;
  length?: number;
  /** 1-based, inclusive. */
  pages?: { from: number; to?: number };
  /** 0-based data rows (the header row is not counted). */
  rows?: { from: number; count: number };
  sheet?: string;
  jsonPath?: string;
  /** Rows whose `column` compares so with `value` (numbers compare as numbers). */
  where?: { column: string; op: '=' | '!=' | '<' | '<=' | '>' | '>=' | 'contains'; value: string | number };
}

/** What a read gives back: text (or rows), and where the next window starts when there is more. */
export interface BlobRead {
  id: string;
  type: string;
  text: string;
  /** Table reads: the header and the rows (as text too, in `text`). */
  columns?: string[];
  rows?: unknown[][];
  /** How many items matched a query, in all (a filter, a JSONPath). */
  matched?: number;
  more: boolean;
  next?: BlobWindow;
}

/** The longest preview kept in history. */
export const PREVIEW_CHARS = 1_000;

/** Who holds a file when there are no API keys (the API's local caller, the CLI): conversations without an owner. */
export const LOCAL_OWNER = 'local';

/** `report.pdf (application/pdf, 2.1 MB, 12 pages)`: a stored file in one line, for the model and the user. */
export function describeBlob(ref: BlobRef): string {
  const facts = ref.facts ?? {};
  const parts = [ref.type, formatBytes(ref.size)];
  if (facts.pages) parts.push(`${facts.pages} page${facts.pages === 1 ? '' : 's'}`);
  if (facts.rows !== undefined) parts.push(`${facts.rows.toLocaleString('en-US')} rows`);
  if (facts.columns?.length) parts.push(`columns ${facts.columns.join(', ')}`);
  if (facts.sheets?.length) parts.push(`sheets ${facts.sheets.join(', ')}`);
  if (facts.width && facts.height) parts.push(`${facts.width}×${facts.height}`);
  return `${ref.name} (${parts.join(', ')})`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
