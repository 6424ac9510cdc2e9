// The PDF the files part uploads: text pages, as a report has, plus a photo-sized image of noise (which no
// compression shrinks) so the file weighs about what a real 5 MB PDF does; pdf.js never decodes the image for text.
// Each upload gets its own copy, a comment after %%EOF making its bytes (and so its content id) new, so the store
// describes and writes every one rather than finding it kept already.
import { writePdf } from '../testkit/pdf';

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
  const firstLine = 'Page 1 of the quarterly report: revenue, costs and the outlook.';
  const textPages = Array.from({ length: TEXT_PAGES }, (_, i) => {
    const n = i + 1;
    const lines = Array.from({ length: LINES_PER_PAGE }, (_, line) => ({
      text: `Line ${line + 1}: region ${(n * 7 + line) % 13}, units ${(n * 31 + line * 17) % 997}.`,
      x: 50,
      y: 710 - line * 16,
      size: 10,
    }));
    return {
      lines: [{ text: n === 1 ? firstLine : `Page ${n} of the quarterly report.`, x: 50, y: 740, size: 14 }, ...lines],
    };
  });
  const image = {
    width: side,
    height: side,
    rgb: noise(side * side * 3),
    at: { x: 50, y: 180, width: 512, height: 512 },
  };
  const bytes = writePdf({ title: 'Quarterly report', author: 'Bench', pages: [...textPages, { image }] });
  return { bytes, pages: TEXT_PAGES + 1, firstLine };
}

/** The same PDF with a comment after its end, unique to `n`: new bytes, the same document. */
export function copyOf(pdf: Uint8Array, n: number, runId: string): Uint8Array {
  return Buffer.concat([pdf, Buffer.from(`\n% bench copy ${runId}-${n}\n`)]);
}

/** Seeded noise (deterministic, so the PDF's size is the same every run). */
function noise(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let seed = 0x2545f491;
  for (let i = 0; i < length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    bytes[i] = seed & 0xff;
  }
  return bytes;
}
