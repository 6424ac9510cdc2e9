// Where files and big results are kept and how much they may weigh, read once at the process edge (the worker's and
// the API's settings, AgentClient.connect) and validated with messages that name the variable.
import path from 'node:path';
import { DEFAULT_CONVERSATION_FILES_MAX_MB, DEFAULT_FILE_MAX_MB, type BlobLimits } from './blob-limits';

/** Every variable the store reads: the compose files pass them to the worker and the API alike. */
export const BLOB_SETTING_NAMES: readonly string[] = [
  'BLOB_STORE',
  'BLOB_DIR',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_FORCE_PATH_STYLE',
  'FILE_MAX_MB',
  'CONVERSATION_FILES_MAX_MB',
];

export type BlobPlace =
  /** A folder (BLOB_DIR, default DATA_DIR/blobs). */
  | { kind: 'fs'; dir: string }
  /** A bucket on any S3-compatible service; credentials as the AWS SDK reads them (AWS_ACCESS_KEY_ID, profiles, roles). */
  | { kind: 's3'; bucket: string; endpoint?: string; region: string; forcePathStyle: boolean };

export interface BlobSettings {
  place: BlobPlace;
  limits: BlobLimits;
}

/** The store's settings from `env`; `dataDir` is DATA_DIR as the process resolved it. */
export function readBlobSettings(env: NodeJS.ProcessEnv, dataDir: string): BlobSettings {
  const limits: BlobLimits = {
    fileMaxBytes: megabytes('FILE_MAX_MB', env.FILE_MAX_MB, DEFAULT_FILE_MAX_MB),
    conversationMaxBytes: megabytes(
      'CONVERSATION_FILES_MAX_MB',
      env.CONVERSATION_FILES_MAX_MB,
      DEFAULT_CONVERSATION_FILES_MAX_MB,
    ),
  };
  if (limits.conversationMaxBytes < limits.fileMaxBytes)
    throw new Error(
      `CONVERSATION_FILES_MAX_MB (${env.CONVERSATION_FILES_MAX_MB}) must be at least FILE_MAX_MB (${env.FILE_MAX_MB || DEFAULT_FILE_MAX_MB}): a conversation holds at least one file.`,
    );
  const kind = (env.BLOB_STORE || 'fs').trim().toLowerCase();
  if (kind === 'fs') return { place: { kind, dir: path.resolve(env.BLOB_DIR || path.join(dataDir, 'blobs')) }, limits };
  if (kind !== 's3') throw new Error(`BLOB_STORE must be fs or s3, got "${env.BLOB_STORE}"`);
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) throw new Error('BLOB_STORE=s3 needs S3_BUCKET, the bucket files are kept in.');
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !/^https?:\/\/[^/]+/.test(endpoint))
    throw new Error(`S3_ENDPOINT must be an http(s) URL such as http://minio:9000, got "${endpoint}"`);
  return {
    place: {
      kind,
      bucket,
      ...(endpoint ? { endpoint } : {}),
      region: env.S3_REGION?.trim() || env.AWS_REGION || 'us-east-1',
      forcePathStyle: flag('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, Boolean(endpoint)),
    },
    limits,
  };
}

function megabytes(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback * 1024 * 1024;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 100_000)
    throw new Error(`${name} must be a number of megabytes above 0 (such as ${fallback}), got "${value}"`);
  return Math.round(n * 1024 * 1024);
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  const s = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off'].includes(s)) return false;
  throw new Error(`${name} must be true or false, got "${value}"`);
}
