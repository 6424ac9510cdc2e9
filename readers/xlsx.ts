// XLSX workbooks with exceljs, after the ZIP is checked by hand for a zip bomb (zip.ts) — the library inflates only
// what passed. A sheet is a table (table.ts): the first non-empty row is the header, windows of rows, a column filter.
// Formulas are never evaluated: a cell shows the result Excel saved with it. Macros are never run (exceljs ignores them).
import ExcelJS from 'exceljs';
import { TYPES } from './detect-type';
import { DEFAULT_READER_LIMITS, type ReaderLimits } from './limits';
import { FileRefusal, type FileReader } from './reader';
import { type Cell, type Table, columnNames, describeTable, readTable } from './table';
import { acceptWindow } from './window';
import { guardZip } from './zip';

interface Workbook {
  sheets: string[];
  table(sheet?: string): Table;
}

async function openWorkbook(bytes: Uint8Array, limits: ReaderLimits): Promise<Workbook> {
  guardZip(bytes, limits);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's types ask for a Buffer of its own @types/node; the bytes are one.
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as never);
  } catch (error) {
    throw new FileRefusal(`a malformed XLSX workbook: ${(error as Error).message}`);
  }
  const sheets = workbook.worksheets.map((s) => s.name);
  return {
    sheets,
    table(name) {
      const sheet = name === undefined ? workbook.worksheets[0] : workbook.getWorksheet(name);
      if (!sheet) {
        throw new FileRefusal(
          name === undefined ? 'the workbook has no sheets' : `no sheet "${name}": the sheets are ${sheets.join(', ')}`,
        );
      }
      return sheetTable(sheet);
    },
  };
}

function sheetTable(sheet: ExcelJS.Worksheet): Table {
  const lines: Cell[][] = [];
  sheet.eachRow((row) => {
    const cells: Cell[] = [];
    // A formula's result is read from the cell itself: exceljs's `value` drops a result of 0, false or "".
    row.eachCell((cell, column) => {
      cells[column - 1] = cellOf(cell.formula ? (cell.result as ExcelJS.CellValue) : cell.value);
    });
    lines.push(Array.from(cells, (cell) => cell ?? null));
  });
  const [header = [], ...body] = lines;
  const width = Math.max(header.length, ...body.map((r) => r.length));
  const columns = columnNames([...header, ...Array<Cell>(width - header.length).fill(null)]);
  const rows = body.map((row) => [...row, ...Array<Cell>(width - row.length).fill(null)]);
  return { columns, rows };
}

/** A cell as a plain value: a formula's saved result (never evaluated), a link's text, rich text's characters. */
function cellOf(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if ('result' in value) return value.result === undefined ? null : cellOf(value.result as ExcelJS.CellValue);
  if ('formula' in value || 'sharedFormula' in value) return null;
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('text' in value) return cellOf(value.text as ExcelJS.CellValue);
  if ('error' in value) return value.error;
  return JSON.stringify(value);
}

export function xlsxReader(limits: ReaderLimits = DEFAULT_READER_LIMITS): FileReader {
  return {
    types: [TYPES.xlsx],
    async describe(bytes) {
      const workbook = await openWorkbook(bytes, limits);
      const first = workbook.sheets[0];
      const { preview, facts } = describeTable(
        workbook.table(),
        `XLSX workbook, sheets: ${workbook.sheets.join(', ')}; sheet "${first}"`,
      );
      return { preview, facts: { ...facts, sheets: workbook.sheets } };
    },
    async read(bytes, window, maxChars) {
      acceptWindow(window, 'an XLSX workbook', ['sheet', 'rows', 'where']);
      const workbook = await openWorkbook(bytes, limits);
      const table = workbook.table(window.sheet);
      const prefix = `sheet "${window.sheet ?? workbook.sheets[0]}", `;
      const read = readTable(table, window, maxChars - prefix.length, window.sheet ? { sheet: window.sheet } : {});
      return { ...read, text: prefix + read.text };
    },
  };
}
