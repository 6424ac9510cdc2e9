// The files part's PDF: about 5 MB, every page read by the PDF reader, and each copy new bytes of the same document.
import { describeFile } from '../readers';
import { copyOf, makeBenchPdf, noisePng } from './files-pdf';

describe('makeBenchPdf', () => {
  it('makes a ~5 MB PDF the reader opens, 41 pages, page 1 first in its preview', async () => {
    const pdf = await makeBenchPdf();
    expect(pdf.bytes.length).toBeGreaterThan(5_000_000);
    expect(pdf.bytes.length).toBeLessThan(5_500_000);
    const about = await describeFile(copyOf(pdf.bytes, 1, 'test'), 'report.pdf');
    expect(about.type).toBe('application/pdf');
    expect(about.facts.pages).toBe(pdf.pages);
    expect(about.preview).toContain(pdf.firstLine);
  }, 30_000);

  it('gives each copy different bytes', async () => {
    const a = copyOf(new Uint8Array([1, 2]), 1, 'r');
    const b = copyOf(new Uint8Array([1, 2]), 2, 'r');
    expect(Buffer.compare(a, b)).not.toBe(0);
  });
});

describe('noisePng', () => {
  it('writes a PNG: signature, then IHDR with the size asked', () => {
    const png = Buffer.from(noisePng(3, 2));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([3, 2]);
  });
});
