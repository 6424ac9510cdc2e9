// The files part's PDF: about 5 MB, every page read by the PDF reader, and each copy new bytes of the same document.
import { describeFile } from '../readers';
import { copyOf, makeBenchPdf } from './files-pdf';

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
