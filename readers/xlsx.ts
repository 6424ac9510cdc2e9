// XLSX workbooks with exceljs, after the ZIP is checked by hand for a zip bomb (zip.ts) — the library inflates only
// what passed — and in a worker thread (worker-thread.ts): a workbook takes about 20 times its inflated XML in memory,
// so its parse gets a heap cap and a time limit of its own. A sheet is a table (table.ts): the first non-empty row is
// the header, windows of rows, a column filter. Formulas are never evaluated: a cell shows the result Excel saved with
// it. Macros are never run (exceljs ignores them).
import { TYPES } from './detect-type';
import { DEFAULT_READER_LIMITS, type ReaderLimits } from './limits';
import { FileRefusal, type FileReader } from './reader';
import { type Cell, type Table, columnNames, describeTable, readTable } from './table';
import { acceptWindow } from './window';
import { runInWorker } from './worker-thread';
import { guardZip } from './zip';

interface SheetLines {
  sheets: string[];
  /** The chosen sheet's non-empty rows, cells as plain values; null when there is no such sheet. */
  lines: Cell[][] | null;
}

// Runs inside the worker. A formula's result is read from the cell itself (exceljs's `value` drops a result of 0,
// false or ""); a link shows its text, rich text its characters, a date its ISO day (or time).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { bytes, input: { exceljsPath, sheet } } = workerData;
function cellOf(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if ('result' in value) return cellOf(value.result);
  if ('formula' in value || 'sharedFormula' in value) return null;
  if (Array.isArray(value.richText)) return value.richText.map((r) => r.text).join('');
  if ('text' in value) return cellOf(value.text);
  if ('error' in value) return value.error;
  return JSON.stringify(value);
}
(async () => {
  const ExcelJS = require(exceljsPath);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes));
  const sheets = workbook.worksheets.map((s) => s.name);
  const chosen = sheet === undefined ? workbook.worksheets[0] : workbook.worksheets.find((s) => s.name === sheet);
  if (!chosen) return parentPort.postMessage({ sheets, lines: null });
  const lines = [];
  chosen.eachRow((row) => {
    const cells = [];
    row.eachCell((cell, column) => { cells[column - 1] = cellOf(cell.formula ? cell.result : cell.value); });
    lines.push(Array.from(cells, (cell) => (cell === undefined ? null : cell)));
  });
  parentPort.postMessage({ sheets, lines });
})().catch((error) => parentPort.postMessage({ error: { name: error && error.name, message: String(error && error.message || error) } }));
`;

async function readSheet(
  bytes: Uint8Array,
  limits: ReaderLimits,
  sheet?: string,
): Promise<{ sheets: string[]; table: Table }> {
  guardZip(bytes, limits);
  const { sheets, lines } = await runInWorker<SheetLines>({
    source: WORKER_SOURCE,
    input: { exceljsPath: require.resolve('exceljs'), sheet },
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
