// A parse that may run long or big (a PDF, a workbook) runs in a worker thread of its own: it can be stopped at the
// time limit, its heap is capped, and a file that exhausts it costs that thread, not the process. The code a worker
// runs is plain CommonJS given as source and loads only npm packages, so it runs the same under jest, tsx and dist/.
import { Worker } from 'node:worker_threads';
import { FileRefusal } from './reader';

/** Parses at once in this process: each may take up to its heap cap, so the others wait their turn. */
const MAX_WORKERS = 2;

let running = 0;
const waiting: (() => void)[] = [];

export interface WorkerJob {
  /** CommonJS source; it reads `workerData` and posts one message: its answer, or `{error: {name, message}}`. */
  source: string;
  /** Given to the worker as `workerData.input`, beside `workerData.bytes`. */
  input: unknown;
  bytes: Uint8Array;
  timeoutMs: number;
  heapMb: number;
  /** "the PDF", "the workbook": for the refusals. */
  what: string;
  /** An error the worker reported, in words. */
  refusal(error: { name?: string; message: string }): FileRefusal;
}

/** The worker's answer; refusals in words when it fails, runs out of time or out of memory. */
export async function runInWorker<T>(job: WorkerJob): Promise<T> {
  // A slot freed goes straight to the next in line, so no newcomer slips in between.
  if (running < MAX_WORKERS) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await run<T>(job);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function run<T>(job: WorkerJob): Promise<T> {
  // A copy of its own to hand over: a Buffer's .buffer may be Node's shared pool, which a transfer would detach.
  const copy = new Uint8Array(job.bytes).buffer;
  const worker = new Worker(job.source, {
    eval: true,
    workerData: { bytes: copy, input: job.input },
    transferList: [copy],
    resourceLimits: { maxOldGenerationSizeMb: job.heapMb },
    stdout: true,
    stderr: true,
  });
  return new Promise<T>((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      worker.removeAllListeners();
      void worker.terminate();
      settle();
    };
    const seconds = job.timeoutMs / 1000;
    const timer = setTimeout(
      () =>
        finish(() => reject(new FileRefusal(`${job.what} took longer than ${seconds} s to read (READER_TIMEOUT_S)`))),
      job.timeoutMs,
    );
    worker.on('message', (answer: T & { error?: { name?: string; message: string } }) =>
      finish(() => (answer.error ? reject(job.refusal(answer.error)) : resolve(answer))),
    );
    worker.on('error', (error: NodeJS.ErrnoException) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new FileRefusal(
                `${job.what} needs more memory than a reader is given (${job.heapMb} MB, READER_WORKER_HEAP_MB)`,
              )
            : new FileRefusal(`${job.what} could not be read: ${error.message}`),
        ),
      ),
    );
    worker.on('exit', (code) =>
      finish(() => reject(new FileRefusal(`${job.what}'s reader stopped (exit code ${code})`))),
    );
  });
}
