// How much a reader takes before it refuses: one place for the limits and their settings. Readers are pure, so they
// never read the environment themselves; the process edge parses it once (readerLimitsFromEnv) and passes the result.

/** Every variable readerLimitsFromEnv reads: the compose files pass them to the worker and the API. */
export const READER_SETTING_NAMES: readonly string[] = [
  'READER_MAX_BYTES',
  'READER_MAX_PDF_PAGES',
  'READER_TIMEOUT_S',
  'READER_WORKER_HEAP_MB',
  'READER_MAX_UNZIPPED_MB',
];

export interface ReaderLimits {
  /** READER_MAX_BYTES: the largest file a reader opens (the store has its own per-file limit too). */
  maxBytes: number;
  /** READER_MAX_PDF_PAGES: PDFs with more pages are refused. */
  maxPdfPages: number;
  /** READER_TIMEOUT_S: a PDF or workbook whose parse takes longer is refused (it runs in a worker thread, stopped then). */
  timeoutMs: number;
  /** READER_WORKER_HEAP_MB: the heap such a parse may take (a workbook takes 3 to 4 times its inflated XML). */
  workerHeapMb: number;
  /** READER_MAX_UNZIPPED_MB: the most a ZIP-based file (XLSX) may inflate to, in all. */
  maxUnzippedBytes: number;
  /** Compression ratio (inflated : stored) above which a ZIP is taken for a zip bomb. */
  maxZipRatio: number;
  /** ZIP entries above which an archive is refused. */
  maxZipEntries: number;
}

const MB = 1024 * 1024;

export const DEFAULT_READER_LIMITS: ReaderLimits = {
  maxBytes: 50 * MB,
  maxPdfPages: 2_000,
  timeoutMs: 30_000,
  workerHeapMb: 2048,
  maxUnzippedBytes: 100 * MB,
  maxZipRatio: 100,
  maxZipEntries: 10_000,
};

/** The limits from settings (READER_MAX_BYTES in bytes or with an MB suffix, …); a bad value names its variable. */
export function readerLimitsFromEnv(env: Record<string, string | undefined>): ReaderLimits {
  const positive = (name: string, fallback: number, scale = 1): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const match = /^(\d+(?:\.\d+)?)\s*(mb)?$/i.exec(raw);
    const value = match ? Number(match[1]) * (match[2] ? MB : scale) : NaN;
    if (!(value > 0) || !Number.isFinite(value)) throw new Error(`${name} must be a positive number, not "${raw}"`);
    return Math.round(value);
  };
  return {
    maxBytes: positive('READER_MAX_BYTES', DEFAULT_READER_LIMITS.maxBytes),
    maxPdfPages: positive('READER_MAX_PDF_PAGES', DEFAULT_READER_LIMITS.maxPdfPages),
    timeoutMs: positive('READER_TIMEOUT_S', DEFAULT_READER_LIMITS.timeoutMs, 1000),
    workerHeapMb: positive('READER_WORKER_HEAP_MB', DEFAULT_READER_LIMITS.workerHeapMb),
    maxUnzippedBytes: positive('READER_MAX_UNZIPPED_MB', DEFAULT_READER_LIMITS.maxUnzippedBytes, MB),
    maxZipRatio: DEFAULT_READER_LIMITS.maxZipRatio,
    maxZipEntries: DEFAULT_READER_LIMITS.maxZipEntries,
  };
}
