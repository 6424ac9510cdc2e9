// A PDF parsed in a worker thread of its own: pdf.js (bundled in unpdf) is an ES module that jest's CommonJS sandbox
// cannot import, and a parse that runs too long or too big must be stoppable — a worker is terminated at the time
// limit and has a memory cap. The worker gets the bytes and which pages to extract, and answers once.
import { Worker } from 'node:worker_threads';
import { FileRefusal } from './reader';

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
const { unpdfPath, bytes, job } = workerData;
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

/** PDFs parsed at once in this process: each worker may take up to its memory cap, so they wait their turn. */
const MAX_WORKERS = 2;
let running = 0;
const waiting: (() => void)[] = [];

/** Extracts text of a page range in a worker thread; refuses, in words, a malformed PDF or one that takes too long. */
export async function extractPdf(bytes: Uint8Array, job: PdfJob, timeoutMs: number): Promise<PdfPages> {
  // A slot freed goes straight to the next in line, so no newcomer slips in between.
  if (running < MAX_WORKERS) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await runWorker(bytes, job, timeoutMs);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function runWorker(bytes: Uint8Array, job: PdfJob, timeoutMs: number): Promise<PdfPages> {
  const copy = bytes.slice().buffer;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { unpdfPath: require.resolve('unpdf'), bytes: copy, job },
    transferList: [copy],
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
    stdout: true,
    stderr: true,
  });
  return new Promise<PdfPages>((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      settle();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(new FileRefusal(`the PDF took longer than ${timeoutMs / 1000} s to read (READER_PDF_TIMEOUT_S)`)),
        ),
      timeoutMs,
    );
    worker.on('message', (answer: PdfPages & { error?: { name?: string; message: string } }) =>
      finish(() => (answer.error ? reject(refusalFor(answer.error)) : resolve(answer))),
    );
    worker.on('error', (error: NodeJS.ErrnoException) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new FileRefusal('the PDF needs more memory than a reader is given')
            : new FileRefusal(`the PDF could not be read: ${error.message}`),
        ),
      ),
    );
    worker.on('exit', (code) => finish(() => reject(new FileRefusal(`the PDF reader stopped (exit code ${code})`))));
  });
}

function refusalFor(error: { name?: string; message: string }): FileRefusal {
  if (error.name === 'PasswordException') return new FileRefusal('the PDF is protected by a password');
  if (error.name === 'InvalidPDFException') return new FileRefusal(`a malformed PDF: ${error.message}`);
  return new FileRefusal(`the PDF could not be read: ${error.message}`);
}
