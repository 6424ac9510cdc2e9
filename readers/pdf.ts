// PDFs: their text by page and their title and author, with unpdf's pdf.js in a worker thread (pdf-worker.ts). A window
// is a range of pages, then characters within that range's text; each page's text starts with "[page N]". Refused in
// words: a malformed or password-protected PDF, more pages than READER_MAX_PDF_PAGES, a parse over the time limit.
import type { BlobWindow } from '../core/blobs';
import { PREVIEW_CHARS } from '../core/blobs';
import { TYPES } from './detect-type';
import { DEFAULT_READER_LIMITS, type ReaderLimits } from './limits';
import { extractPdf, type PdfJob, type PdfPages } from './pdf-worker';
import { FileRefusal, type FileReader } from './reader';
import { acceptWindow, charWindow, count } from './window';

const pagesText = (from: number, texts: string[]): string =>
  texts.map((text, i) => `[page ${from + i}]\n${text}`).join('\n\n');

export function pdfReader(limits: ReaderLimits = DEFAULT_READER_LIMITS): FileReader {
  const extract = async (bytes: Uint8Array, job: Omit<PdfJob, 'maxPages'>): Promise<PdfPages> => {
    const got = await extractPdf(bytes, { ...job, maxPages: limits.maxPdfPages }, limits);
    if (got.pages > limits.maxPdfPages) {
      throw new FileRefusal(
        `a PDF of ${count(got.pages)} pages, over the ${count(limits.maxPdfPages)} a reader takes (READER_MAX_PDF_PAGES)`,
      );
    }
    return got;
  };
  return {
    types: [TYPES.pdf],
    async describe(bytes) {
      const got = await extract(bytes, { from: 1, to: Infinity, stopAfter: PREVIEW_CHARS, meta: true });
      const about = [
        `PDF, ${count(got.pages)} page${got.pages === 1 ? '' : 's'}`,
        got.title ? `“${got.title}”` : '',
        got.author ? `by ${got.author}` : '',
      ];
      const text = pagesText(1, got.texts);
      const empty = got.texts.every((t) => t === '') ? ' (no text on these pages: scanned images are not read)' : '';
      const head = about.filter(Boolean).join(', ') + empty + '\n';
      return {
        preview: (head + charWindow(text, {}, Math.max(0, PREVIEW_CHARS - head.length)).text).slice(0, PREVIEW_CHARS),
        facts: { pages: got.pages },
      };
    },
    async read(bytes, window, maxChars) {
      acceptWindow(window, 'a PDF', ['pages', 'characters']);
      const from = window.pages?.from ?? 1;
      const to = window.pages?.to ?? Infinity;
      if (!Number.isInteger(from) || from < 1 || (to !== Infinity && (!Number.isInteger(to) || to < from))) {
        throw new FileRefusal(`pages needs a whole "from" ≥ 1 and a "to" ≥ from, not ${JSON.stringify(window.pages)}`);
      }
      const offset = window.offset ?? 0;
      const wanted = offset + Math.min(window.length ?? maxChars, maxChars);
      // One character past the window tells whether there is more.
      const got = await extract(bytes, { from, to, stopAfter: wanted + 1, meta: false });
      if (from > got.pages) {
        throw new FileRefusal(
          `page ${from} is past the end: the PDF has ${count(got.pages)} page${got.pages === 1 ? '' : 's'}`,
        );
      }
      const cut = charWindow(pagesText(from, got.texts), window, maxChars, `pages ${from}–${Math.min(to, got.pages)}`);
      const next: BlobWindow = { ...(window.pages ? { pages: window.pages } : {}), offset: cut.nextOffset };
      return { text: cut.text, more: cut.more, ...(cut.more ? { next } : {}) };
    },
  };
}
