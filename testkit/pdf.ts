// PDFs for the tests and the bench, written object by object: pages of text in the standard Helvetica font (which a
// reader needs no embedded font for), an optional page holding an RGB image, and the title and author in the
// document's information dictionary. What reads them is pdf.js (through unpdf), so a PDF that pdf.js reads as the
// writer meant is what the readers' tests need; a library to write four kinds of object weighed 25 MB installed.
import { deflateSync } from 'node:zlib';

export interface PdfLine {
  text: string;
  x: number;
  y: number;
  size: number;
}

export interface PdfImage {
  width: number;
  height: number;
  /** width × height × 3 bytes, rows top to bottom. */
  rgb: Uint8Array;
  /** Where it is drawn on its page, in points. */
  at: { x: number; y: number; width: number; height: number };
}

export interface PdfPage {
  lines?: PdfLine[];
  image?: PdfImage;
}

export interface PdfDocument {
  pages: PdfPage[];
  title?: string;
  author?: string;
}

const LETTER = '[0 0 612 792]';

/** The document as PDF 1.7 bytes: catalog, page tree, pages with their content streams, one font, info, xref. */
export function writePdf(doc: PdfDocument): Uint8Array {
  const objects: Buffer[] = [];
  const add = (body: string | Buffer): number =>
    objects.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'));
  const stream = (dict: string, data: Buffer): Buffer =>
    Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);

  const catalog = add(''); // filled once the page tree's number is known
  const pages = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids = doc.pages.map((page) => {
    const draw: string[] = (page.lines ?? []).map(
      (l) => `BT /F1 ${l.size} Tf ${l.x} ${l.y} Td (${escapeText(l.text)}) Tj ET`,
    );
    let xobject = '';
    if (page.image) {
      const { width, height, rgb, at } = page.image;
      const image = add(
        stream(
          `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB ` +
            '/BitsPerComponent 8 /Filter /FlateDecode',
          deflateSync(rgb, { level: 1 }),
        ),
      );
      xobject = ` /XObject << /Im1 ${image} 0 R >>`;
      draw.push(`q ${at.width} 0 0 ${at.height} ${at.x} ${at.y} cm /Im1 Do Q`);
    }
    const content = add(stream('', Buffer.from(draw.join('\n'), 'latin1')));
    return add(
      `<< /Type /Page /Parent ${pages} 0 R /MediaBox ${LETTER} /Contents ${content} 0 R ` +
        `/Resources << /Font << /F1 ${font} 0 R >>${xobject} >> >>`,
    );
  });
  objects[catalog - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pages} 0 R >>`);
  objects[pages - 1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
  );
  const info = add(
    `<< /Producer (testkit/pdf.ts)${doc.title ? ` /Title (${escapeText(doc.title)})` : ''}` +
      `${doc.author ? ` /Author (${escapeText(doc.author)})` : ''} >>`,
  );

  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]!.length;
  const offsets = objects.map((body, i) => {
    const at = offset;
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    chunks.push(chunk);
    offset += chunk.length;
    return at;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
    `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
  ].join('');
  chunks.push(Buffer.from(xref));
  return new Uint8Array(Buffer.concat(chunks));
}

/** A PDF string's text: backslash and parentheses escaped; characters outside Latin-1 refused (WinAnsi cannot show
 * them, and a test that wrote one would read back something else). */
function escapeText(text: string): string {
  if (/[^\x20-\x7e\xa0-\xff]/.test(text))
    throw new Error(`writePdf: only printable Latin-1 text: ${JSON.stringify(text)}`);
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}
