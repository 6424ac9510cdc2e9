// XLSX workbooks, after the ZIP is checked by hand for a zip bomb (zip.ts), parsed in a worker thread
// (xlsx-worker.ts, run by worker-thread.ts) with a heap cap and a time limit of its own. A sheet is a table (table.ts):
// the first non-empty row is the header, windows of rows, a column filter. Formulas are never evaluated: a cell shows
// the result Excel saved with it. Macros are never run (the parse reads cell values only).
import { TYPES } from './detect-type';
import { DEFAULT_READER_LIMITS, type ReaderLimits } from './limits';
import { FileRefusal, type FileReader } from './reader';
import { type Cell, type Table, columnNames, describeTable, readTable } from './table';
import { acceptWindow } from './window';
import { runInWorker } from './worker-thread';
import { XLSX_WORKER_SOURCE } from './xlsx-worker';
import { guardZip } from './zip';

interface SheetLines {
  sheets: string[];
  /** The chosen sheet's non-empty rows, cells as plain values; null when there is no such sheet. */
  lines: Cell[][] | null;
}

async function readSheet(
  bytes: Uint8Array,
  limits: ReaderLimits,
  sheet?: string,
): Promise<{ sheets: string[]; table: Table }> {
  const entries = guardZip(bytes, limits);
  const { sheets, lines } = await runInWorker<SheetLines>({
    source: XLSX_WORKER_SOURCE,
    input: { entries, sheet },
    bytes,
    timeoutMs: limits.timeoutMs,
    heapMb: limits.workerHeapMb,
    what: 'the workbook',
    refusal: (error) => new FileRefusal(`a malformed XLSX workbook: ${error.message}`),
  });
  if (!lines) {
    throw new FileRefusal(
      sheet === undefined ? 'the workbook has no sheets' : `no sheet "${sheet}": the sheets are ${sheets.join(', ')}`,
    );
  }
  const [header = [], ...body] = lines;
  const width = body.reduce((most, row) => Math.max(most, row.length), header.length);
  const columns = columnNames([...header, ...Array<Cell>(width - header.length).fill(null)]);
  const rows = body.map((row) => [...row, ...Array<Cell>(width - row.length).fill(null)]);
  return { sheets, table: { columns, rows } };
}

export function xlsxReader(limits: ReaderLimits = DEFAULT_READER_LIMITS): FileReader {
  return {
    types: [TYPES.xlsx],
    async describe(bytes) {
      const { sheets, table } = await readSheet(bytes, limits);
      const kind = `XLSX workbook, sheets: ${sheets.join(', ')}; sheet "${sheets[0]}"`;
      const { preview, facts } = describeTable(table, kind);
      return { preview, facts: { ...facts, sheets } };
    },
    async read(bytes, window, maxChars) {
      acceptWindow(window, 'an XLSX workbook', ['sheet', 'rows', 'where']);
      const { sheets, table } = await readSheet(bytes, limits, window.sheet);
      const prefix = `sheet "${window.sheet ?? sheets[0]}", `;
      const read = readTable(table, window, maxChars - prefix.length, window.sheet ? { sheet: window.sheet } : {});
      return { ...read, text: prefix + read.text };
    },
  };
}
