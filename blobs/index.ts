// The blob store the settings name: a folder (BLOB_STORE=fs, the default) or an S3-compatible bucket (BLOB_STORE=s3),
// describing what it keeps with the readers (readers/index.ts), which find the type in the content.
import { describeFile } from '../readers';
import type { BlobLimits } from './blob-limits';
import type { BlobSettings } from './blob-settings';
import type { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-store';
import { S3BlobStore } from './s3-store';
import type { DescribeFile } from './keyed-store';

export type { BlobStore, StoredBlob } from './blob-store';
export { readBlobSettings, BLOB_SETTING_NAMES, type BlobSettings } from './blob-settings';
export { FileTooLarge, fileTooLargeMessage, type BlobLimits } from './blob-limits';
export { unknownFile } from './keyed-store';

/** Who holds a file when there are no API keys (the API's local caller, the CLI): conversations without an owner. */
export const LOCAL_OWNER = 'local';

/** A store with the limits it keeps to, so the ways in (the API's body limit, the CLI) refuse early in the same words. */
export type LimitedBlobStore = BlobStore & { readonly limits: BlobLimits };

export function openBlobStore(settings: BlobSettings, describe: DescribeFile = describeFile): LimitedBlobStore {
  const { place, limits } = settings;
  return place.kind === 's3' ? new S3BlobStore(place, describe, limits) : new FsBlobStore(place.dir, describe, limits);
}
