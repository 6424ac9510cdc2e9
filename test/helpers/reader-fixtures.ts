// Files for the readers' tests, made in the test rather than committed: a PDF (testkit/pdf.ts), a workbook (exceljs), a big
// CSV, ZIPs written byte by byte (so a zip bomb can declare what it likes), and image headers.
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
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
export async function makeXlsx(rows = 200): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sales = workbook.addWorksheet('Sales');
  sales.addRow(['region', 'units', 'price', 'total', 'day']);
  for (let i = 0; i < rows; i++) {
    const units = i % 50;
    const price = 2.5;
    sales.addRow([i % 2 ? 'North' : 'South', units, price, { formula: `B${i + 2}*C${i + 2}`, result: units * price }]);
    sales.getCell(`E${i + 2}`).value = new Date(Date.UTC(2026, 0, 1 + (i % 28)));
  }
  const notes = workbook.addWorksheet('Notes');
  notes.addRow(['note']);
  notes.addRow([{ richText: [{ text: 'Figures are ' }, { text: 'provisional' }] }]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
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
