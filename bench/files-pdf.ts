// The PDF the files part uploads: text pages, as a report has, plus a photo-sized image of noise (which no
// compression shrinks) so the file weighs about what a real 5 MB PDF does; pdf.js never decodes the image for text.
// Each upload gets its own copy, a comment after %%EOF making its bytes (and so its content id) new, so the store
// describes and writes every one rather than finding it kept already.
import { deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export interface BenchPdf {
  bytes: Uint8Array;
  pages: number;
  /** The words on page 1, which a read of page 1 gives back. */
  firstLine: string;
}

const TEXT_PAGES = 40;
const LINES_PER_PAGE = 40;

/** A PDF of `TEXT_PAGES` text pages and one page holding a `side`×`side` RGB image of noise (side 1,300: ~5.1 MB). */
export async function makeBenchPdf(side = 1300): Promise<BenchPdf> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const firstLine = 'Page 1 of the quarterly report: revenue, costs and the outlook.';
  for (let n = 1; n <= TEXT_PAGES; n++) {
    const page = doc.addPage([612, 792]);
    page.drawText(n === 1 ? firstLine : `Page ${n} of the quarterly report.`, { x: 50, y: 740, size: 14, font });
    for (let line = 0; line < LINES_PER_PAGE; line++)
      page.drawText(`Line ${line + 1}: region ${(n * 7 + line) % 13}, units ${(n * 31 + line * 17) % 997}.`, {
        x: 50,
        y: 710 - line * 16,
        size: 10,
        font,
      });
  }
  const image = await doc.embedPng(noisePng(side, side));
  doc.addPage([612, 792]).drawImage(image, { x: 50, y: 180, width: 512, height: 512 });
  doc.setTitle('Quarterly report');
  doc.setAuthor('Bench');
  return { bytes: await doc.save(), pages: TEXT_PAGES + 1, firstLine };
}

/** The same PDF with a comment after its end, unique to `n`: new bytes, the same document. */
export function copyOf(pdf: Uint8Array, n: number, runId: string): Uint8Array {
  return Buffer.concat([pdf, Buffer.from(`\n% bench copy ${runId}-${n}\n`)]);
}

/** An RGB PNG of seeded noise (deterministic, so the PDF's size is the same every run). */
export function noisePng(width: number, height: number): Uint8Array {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let seed = 0x2545f491;
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1); // each row starts with filter type 0 (none)
    for (let i = 1; i <= width * 3; i++) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      raw[row + i] = seed & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
