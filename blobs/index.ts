// The blob store the settings name: a folder (BLOB_STORE=fs, the default) or an S3-compatible bucket (BLOB_STORE=s3),
// describing what it keeps with the readers (readers/index.ts), which find the type in the content.
import { describeFile } from '../readers';
import type { BlobLimits } from './blob-limits';
import type { BlobSettings } from './blob-settings';
import type { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-store';
import type { DescribeFile } from './keyed-store';

export type { BlobStore, StoredBlob } from './blob-store';
export { readBlobSettings, BLOB_SETTING_NAMES, type BlobSettings } from './blob-settings';
export { FileTooLarge, fileTooLargeMessage, type BlobLimits } from './blob-limits';
export { unknownFile } from './keyed-store';

export { LOCAL_OWNER } from '../core/blobs';

/** A store with the limits it keeps to, so the ways in (the API's body limit, the CLI) refuse early in the same words. */
export type LimitedBlobStore = BlobStore & { readonly limits: BlobLimits };

export function openBlobStore(settings: BlobSettings, describe: DescribeFile = describeFile): LimitedBlobStore {
  const { place, limits } = settings;
  if (place.kind === 'fs') return new FsBlobStore(place.dir, describe, limits);
  // The AWS SDK is loaded only for a bucket: ~100 ms that the CLI and folder deployments need not pay at start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3BlobStore } = require('./s3-store') as typeof import('./s3-store');
  return new S3BlobStore(place, describe, limits);
}
