// Files for the readers' tests, made in the test rather than committed: a PDF (testkit/pdf.ts), a workbook (writeXlsx,
// the parts of ECMA-376 a reader reads), a big CSV, ZIPs written byte by byte (so a zip bomb can declare what it
// likes), and image headers. One workbook written by another program is committed (test/fixtures/readers/).
import { deflateRawSync } from 'node:zlib';
import { writePdf } from '../../testkit/pdf';

/** A PDF of `pages` pages, each saying which it is; page 7 also names the secret. */
export async function makePdf(pages = 12, title = 'Quarterly report', author = 'Ada Lovelace'): Promise<Uint8Array> {
  return writePdf({
    title,
    author,
    pages: Array.from({ length: pages }, (_, i) => ({
      lines: [
        { text: `Page ${i + 1} of the quarterly report.`, x: 50, y: 720, size: 14 },
        ...(i + 1 === 7 ? [{ text: 'The vault code is 4-8-15-16-23-42.', x: 50, y: 690, size: 12 }] : []),
      ],
    })),
  });
}

export const CITIES = ['Paris', 'Lagos', 'Lima', 'Oslo', 'Pune'];

/** A CSV of `rows` data rows: id, city, amount (id % 1000 + 0.5), active (even ids), zip (text with a leading 0). */
export function makeCsv(rows = 50_000, delimiter = ','): Uint8Array {
  const lines = [['id', 'city', 'amount', 'active', 'zip'].join(delimiter)];
  for (let id = 0; id < rows; id++) {
    const zip = String(id % 100_000).padStart(5, '0');
    lines.push([id, CITIES[id % CITIES.length], (id % 1000) + 0.5, id % 2 === 0, zip].join(delimiter));
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/** A workbook: "Sales" (region, units, price, total as a formula with its saved result, date), and "Notes". */
export function makeXlsx(rows = 200): Uint8Array {
  const sales: XlsxCell[][] = [['region', 'units', 'price', 'total', 'day']];
  for (let i = 0; i < rows; i++) {
    const units = i % 50;
    const price = 2.5;
    const day = new Date(Date.UTC(2026, 0, 1 + (i % 28)));
    sales.push([
      i % 2 ? 'North' : 'South',
      units,
      price,
      { formula: `B${i + 2}*C${i + 2}`, result: units * price },
      day,
    ]);
  }
  const notes: XlsxCell[][] = [['note'], [{ richText: ['Figures are ', 'provisional'] }]];
  return writeXlsx([
    { name: 'Sales', rows: sales },
    { name: 'Notes', rows: notes },
  ]);
}

export type XlsxCell =
  string | number | boolean | Date | null | { formula: string; result: number } | { richText: string[] };

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** A workbook as Excel writes one: shared strings, dates as serial days in a date style (s="1", format 14). */
export function writeXlsx(sheets: { name: string; rows: XlsxCell[][] }[]): Uint8Array {
  // Each distinct string once, as Excel keeps them.
  const strings = new Map<string, number>();
  const shared = (si: string) => strings.get(si) ?? (strings.set(si, strings.size), strings.size - 1);
  const cell = (value: XlsxCell, ref: string): string => {
    if (value === null) return '';
    if (typeof value === 'string') return `<c r="${ref}" t="s"><v>${shared(`<t>${xml(value)}</t>`)}</v></c>`;
    if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
    if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
    if (value instanceof Date) return `<c r="${ref}" s="1"><v>${value.getTime() / 86_400_000 + 25_569}</v></c>`;
    if ('formula' in value) return `<c r="${ref}"><f>${xml(value.formula)}</f><v>${value.result}</v></c>`;
    const runs = value.richText.map((t) => `<r><t xml:space="preserve">${xml(t)}</t></r>`).join('');
    return `<c r="${ref}" t="s"><v>${shared(runs)}</v></c>`;
  };
  const sheetXml = (rows: XlsxCell[][]) =>
    `<worksheet ${NS}><sheetData>${rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">${row.map((v, c) => cell(v, `${String.fromCharCode(65 + c)}${r + 1}`)).join('')}</row>`,
      )
      .join('')}</sheetData></worksheet>`;
  const parts: [string, string][] = sheets.map((s, i) => [`xl/worksheets/sheet${i + 1}.xml`, sheetXml(s.rows)]);
  parts.push(
    [
      'xl/workbook.xml',
      `<workbook ${NS} ${R}><sheets>${sheets.map((s, i) => `<sheet name="${xml(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
    ],
    ['xl/sharedStrings.xml', `<sst ${NS}>${[...strings.keys()].map((si) => `<si>${si}</si>`).join('')}</sst>`],
    [
      'xl/styles.xml',
      `<styleSheet ${NS}><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>`,
    ],
  );
  return makeZip(
    parts.map(([name, text]) => {
      const bytes = Buffer.from(text);
      return { name, data: deflateRawSync(bytes), size: bytes.length };
    }),
  );
}

export interface ZipPart {
  name: string;
  /** The entry's bytes as stored (deflated already when `method` is 8). */
  data: Uint8Array;
  method?: 0 | 8;
  /** The inflated size the headers declare. */
  size: number;
}

/** A ZIP written by hand: local headers, data, central directory, end record (CRCs left 0: nothing here checks them). */
export function makeZip(parts: ZipPart[]): Uint8Array {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.method ?? 8, 8);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(part.method ?? 8, 10);
    entry.writeUInt32LE(part.data.length, 20);
    entry.writeUInt32LE(part.size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    chunks.push(local, name, Buffer.from(part.data));
    central.push(entry, name);
    offset += 30 + name.length + part.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, directory, end]);
}

/** `bytes` zero bytes, deflated (about 1,000:1). */
export function deflatedZeros(bytes: number): Uint8Array {
  return deflateRawSync(Buffer.alloc(bytes), { level: 9 });
}

/** A zip bomb dressed as a workbook: xl/workbook.xml, and a sheet of `inflated` zero bytes. */
export function makeZipBomb(inflated: number, declared = inflated): Uint8Array {
  const workbook = Buffer.from('<workbook/>');
  return makeZip([
    { name: 'xl/workbook.xml', data: workbook, method: 0, size: workbook.length },
    { name: 'xl/worksheets/sheet1.xml', data: deflatedZeros(inflated), size: declared },
  ]);
}

/** The first bytes of images of each kind, as far as a header reader looks. */
export function pngHeader(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'ascii');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

export function gifHeader(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'ascii');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/** SOI, an APP0 segment, then SOF0 with the size. */
export function jpegHeader(width: number, height: number): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [
    0xff,
    0xc0,
    0x00,
    0x11,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
  ];
  return Buffer.from([0xff, 0xd8, ...app0, ...sof, 3, 0x11, 1, 0xff, 0xd9]);
}

/** A lossless WebP's header (VP8L). */
export function webpHeader(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(30);
  bytes.write('RIFF', 0, 'ascii');
  bytes.writeUInt32LE(22, 4);
  bytes.write('WEBPVP8L', 8, 'ascii');
  bytes.writeUInt32LE(10, 16);
  bytes[20] = 0x2f;
  bytes.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  return bytes;
}
