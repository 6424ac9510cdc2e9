// The tests' PDF writer: what it writes, pdf.js (the PDF reader's library) reads back as meant.
import { describeFile, readWindow } from '../../readers';
import { writePdf } from '../../testkit/pdf';

describe('writePdf', () => {
  it('writes pages of text, title and author that the PDF reader reads back, escapes included', async () => {
    const pdf = writePdf({
      title: 'Notes (draft)',
      author: 'Zoë',
      pages: [
        { lines: [{ text: 'First page \\ with (parentheses)', x: 50, y: 720, size: 12 }] },
        { lines: [{ text: 'Second page, café', x: 50, y: 720, size: 12 }] },
      ],
    });
    expect(Buffer.from(pdf.subarray(0, 8)).toString('latin1')).toBe('%PDF-1.7');
    const about = await describeFile(pdf, 'notes.pdf');
    expect(about.facts).toEqual({ pages: 2 });
    expect(about.preview).toMatch(
      /^PDF, 2 pages, “Notes \(draft\)”, by Zoë\n\[page 1\]\nFirst page \\ with \(parentheses\)/,
    );
    const page2 = await readWindow(pdf, 'application/pdf', { pages: { from: 2, to: 2 } }, 1000);
    expect(page2.text).toContain('Second page, café');
  });

  it('refuses text WinAnsi cannot show, rather than writing something else', () => {
    expect(() => writePdf({ pages: [{ lines: [{ text: 'こんにちは', x: 0, y: 0, size: 12 }] }] })).toThrow(
      /only printable Latin-1 text/,
    );
  });
});
