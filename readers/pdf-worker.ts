// A PDF parsed in a worker thread (worker-thread.ts): stoppable at the time limit, its heap capped — and pdf.js,
// bundled in unpdf, is an ES module that jest's CommonJS sandbox cannot import, while a worker is plain Node. The
// worker gets the bytes and which pages to extract, and answers once.
import type { ReaderLimits } from './limits';
import { FileRefusal } from './reader';
import { runInWorker } from './worker-thread';

export interface PdfJob {
  /** 1-based, inclusive; `to` is clamped to the page count. */
  from: number;
  to: number;
  /** Stop extracting once this many characters are in hand (the window is filled). */
  stopAfter: number;
  /** Refuse (answer with the count and no text) over this many pages. */
  maxPages: number;
  /** Read the title and author too. */
  meta: boolean;
}

export interface PdfPages {
  pages: number;
  title?: string;
  author?: string;
  /** Text of pages from, from + 1, …: as many as were extracted. */
  texts: string[];
}

// Runs inside the worker (CommonJS, eval). isEvalSupported: false keeps pdf.js from compiling font programs into
// functions; pdf.js runs no JavaScript embedded in a PDF outside a viewer with scripting on, and none is on here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { bytes, input: { unpdfPath, job } } = workerData;
(async () => {
  const { getDocumentProxy } = require(unpdfPath);
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0,
  });
  const pages = pdf.numPages;
  if (pages > job.maxPages) return parentPort.postMessage({ pages, texts: [] });
  let title, author;
  if (job.meta) {
    const info = (await pdf.getMetadata().catch(() => ({}))).info || {};
    title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
    author = typeof info.Author === 'string' && info.Author.trim() ? info.Author.trim() : undefined;
  }
  const texts = [];
  let total = 0;
  for (let n = job.from; n <= Math.min(job.to, pages); n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    const text = content.items.map((item) => (item.str || '') + (item.hasEOL ? '\\n' : '')).join('').trim();
    page.cleanup();
    texts.push(text);
    total += text.length;
    if (total >= job.stopAfter) break;
  }
  await pdf.destroy();
  parentPort.postMessage({ pages, title, author, texts });
})().catch((error) => parentPort.postMessage({ error: { name: error && error.name, message: String(error && error.message || error) } }));
`;

/** Extracts text of a page range in a worker thread; refuses, in words, a malformed PDF or one that takes too long. */
export function extractPdf(bytes: Uint8Array, job: PdfJob, limits: ReaderLimits): Promise<PdfPages> {
  return runInWorker<PdfPages>({
    source: WORKER_SOURCE,
    input: { unpdfPath: require.resolve('unpdf'), job },
    bytes,
    timeoutMs: limits.timeoutMs,
    heapMb: limits.workerHeapMb,
    what: 'the PDF',
    refusal: refusalFor,
  });
}

function refusalFor(error: { name?: string; message: string }): FileRefusal {
  if (error.name === 'PasswordException') return new FileRefusal('the PDF is protected by a password');
  if (error.name === 'InvalidPDFException') return new FileRefusal(`a malformed PDF: ${error.message}`);
  return new FileRefusal(`the PDF could not be read: ${error.message}`);
}
