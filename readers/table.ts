// What CSV, TSV and XLSX share once parsed: a table of typed cells, read a window of rows at a time, optionally
// filtered on a column (numbers compare as numbers, text without regard to case), shown to the model as CSV text
// under a line that says which rows these are.
import type { BlobRead, BlobWindow } from '../core/blobs';
import { PREVIEW_CHARS } from '../core/blobs';
import { FileRefusal } from './reader';
import { count } from './window';

export type Cell = string | number | boolean | null;

export interface Table {
  columns: string[];
  rows: Cell[][];
}

/** The most rows one read returns, whatever it asks. */
export const MAX_ROWS_PER_READ = 1_000;

/** Header cells as column names: blanks named by position, repeats numbered. */
export function columnNames(header: Cell[]): string[] {
  const seen = new Map<string, number>();
  return header.map((cell, i) => {
    const base = cell === null || String(cell).trim() === '' ? `column ${i + 1}` : String(cell).trim();
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/** A CSV field as text: numbers and booleans as written, text quoted when it must be. */
export function csvField(cell: Cell, delimiter = ','): string {
  if (cell === null) return '';
  const text = String(cell);
  return /["\r\n]/.test(text) || text.includes(delimiter) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: Cell[]): string => cells.map((c) => csvField(c)).join(',');

export function describeTable(
  table: Table,
  kind: string,
): { preview: string; facts: { rows: number; columns: string[] } } {
  const head = `${kind}, ${count(table.rows.length)} rows × ${table.columns.length} columns\n`;
  let preview = head + csvLine(table.columns);
  for (const row of table.rows) {
    const line = '\n' + csvLine(row);
    if (preview.length + line.length > PREVIEW_CHARS) break;
    preview += line;
  }
  return { preview: preview.slice(0, PREVIEW_CHARS), facts: { rows: table.rows.length, columns: table.columns } };
}

/** The rows a window asks for (of those matching its filter), as rows and as text within maxChars. */
export function readTable(
  table: Table,
  window: BlobWindow,
  maxChars: number,
  keep: Partial<BlobWindow> = {},
): Omit<BlobRead, 'id' | 'type'> {
  const from = window.rows?.from ?? 0;
  const asked = window.rows?.count ?? MAX_ROWS_PER_READ;
  if (!Number.isInteger(from) || from < 0 || !Number.isInteger(asked) || asked < 1) {
    throw new FileRefusal(`rows needs a whole "from" ≥ 0 and a whole "count" ≥ 1, not ${JSON.stringify(window.rows)}`);
  }
  const matches = window.where ? table.rows.filter(rowMatcher(table.columns, window.where)) : table.rows;
  const of = window.where
    ? `${count(matches.length)} matching ${describeWhere(window.where)} (of ${count(table.rows.length)})`
    : count(table.rows.length);
  const wanted = matches.slice(from, from + Math.min(asked, MAX_ROWS_PER_READ));
  const rows: Cell[][] = [];
  let body = csvLine(table.columns);
  for (const row of wanted) {
    const line = '\n' + csvLine(row);
    if (rows.length > 0 && body.length + line.length > maxChars) break;
    body += line;
    rows.push(row);
  }
  const head = rows.length
    ? `rows ${count(from)}–${count(from + rows.length - 1)} of ${of}\n`
    : `no rows from ${count(from)} on: ${of}\n`;
  const end = from + rows.length;
  const more = end < matches.length;
  const next: BlobWindow = {
    ...keep,
    rows: { from: end, count: asked },
    ...(window.where ? { where: window.where } : {}),
  };
  return {
    text: (head + body).slice(0, maxChars),
    columns: table.columns,
    rows,
    ...(window.where ? { matched: matches.length } : {}),
    more,
    ...(more ? { next } : {}),
  };
}

type Where = NonNullable<BlobWindow['where']>;
const OPS = ['=', '!=', '<', '<=', '>', '>=', 'contains'];

function describeWhere(where: Where): string {
  return `${where.column} ${where.op} ${JSON.stringify(where.value)}`;
}

/** A predicate for `where`; an unknown column or operator is refused, naming what there is. */
export function rowMatcher(columns: string[], where: Where): (row: Cell[]) => boolean {
  let index = columns.indexOf(where.column);
  if (index < 0) index = columns.findIndex((c) => c.toLowerCase() === String(where.column).trim().toLowerCase());
  if (index < 0) throw new FileRefusal(`no column "${where.column}": the columns are ${columns.join(', ')}`);
  if (!OPS.includes(where.op)) throw new FileRefusal(`no operator "${where.op}": use one of ${OPS.join(' ')}`);
  const target = asNumber(where.value);
  const text = String(where.value).toLowerCase();
  const compare = (a: number | string, b: number | string): boolean => {
    switch (where.op) {
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      default:
        return a >= b;
    }
  };
  return (row) => {
    const cell = row[index] ?? null;
    if (where.op === 'contains') return cell !== null && String(cell).toLowerCase().includes(text);
    const number = asNumber(cell);
    if (where.op === '=' || where.op === '!=') {
      const same = target !== null && number !== null ? number === target : String(cell ?? '').toLowerCase() === text;
      return where.op === '=' ? same : !same;
    }
    if (cell === null) return false;
    if (target !== null) return number !== null && compare(number, target);
    return compare(String(cell), String(where.value));
  };
}

function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
