// What every reader shares about windows: refusing, in words that say what it can do, a window its kind cannot serve
// (pages of a CSV), and cutting a text to a window of characters with where the next one starts.
import type { BlobWindow } from '../core/blobs';
import { FileRefusal } from './reader';

/** A part of a window a reader may serve. */
export type WindowPart = 'characters' | 'pages' | 'rows' | 'sheet' | 'jsonPath' | 'where';

const FIELDS: Record<WindowPart, (keyof BlobWindow)[]> = {
  characters: ['offset', 'length'],
  pages: ['pages'],
  rows: ['rows'],
  sheet: ['sheet'],
  jsonPath: ['jsonPath'],
  where: ['where'],
};

const SHAPES: Record<WindowPart, string> = {
  characters: 'characters (offset, length)',
  pages: 'pages (pages: {from, to})',
  rows: 'rows (rows: {from, count})',
  sheet: 'a sheet (sheet: name)',
  jsonPath: 'a JSONPath query (jsonPath: "$.items[*].name")',
  where: 'a filter on a column (where: {column, op, value})',
};

/** Refuses a window with parts `what` (e.g. "a CSV table") cannot serve, naming those it can. */
export function acceptWindow(window: BlobWindow, what: string, can: WindowPart[]): void {
  const asked = (Object.keys(FIELDS) as WindowPart[]).filter((part) =>
    FIELDS[part].some((field) => window[field] !== undefined && window[field] !== null),
  );
  const cannot = asked.filter((part) => !can.includes(part));
  if (cannot.length === 0) return;
  const wanted = cannot.map((part) => FIELDS[part].join('/')).join(', ');
  const ways = can.length
    ? `it can be read by ${can.map((p) => SHAPES[p]).join(', or ')}`
    : 'it is read whole, without a window';
  throw new FileRefusal(`${what} cannot be read by ${wanted}: ${ways}`);
}

export interface CharWindow {
  text: string;
  more: boolean;
  /** Where the next window starts, when there is more. */
  nextOffset?: number;
}

/** `offset`..`offset + min(length, maxChars)` of `text`, never splitting a surrogate pair. */
export function charWindow(text: string, window: BlobWindow, maxChars: number, what = 'the text'): CharWindow {
  const offset = window.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0)
    throw new FileRefusal(`offset must be a whole number ≥ 0, not ${offset}`);
  if (offset > text.length) {
    throw new FileRefusal(
      `offset ${offset.toLocaleString('en-US')} is past the end: ${what} has ${text.length.toLocaleString('en-US')} characters`,
    );
  }
  if (window.length !== undefined && (!Number.isInteger(window.length) || window.length < 1)) {
    throw new FileRefusal(`length must be a whole number ≥ 1, not ${window.length}`);
  }
  const length = Math.min(window.length ?? maxChars, maxChars);
  let end = Math.min(offset + length, text.length);
  if (end < text.length && end > offset && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const more = end < text.length;
  return { text: text.slice(offset, end), more, ...(more ? { nextOffset: end } : {}) };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A count as people write it: 50,000. */
export const count = (n: number): string => n.toLocaleString('en-US');
