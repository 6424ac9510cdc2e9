// A second (and third) process on one blob folder, for test/unit/blob-store.test.ts and the S3 test: puts the same
// contents as its siblings at the same time, and with `--release` lets go of each conversation once it has read the
// blob back, so one process deletes what another is taking up. Prints one JSON line per put, then `done`.
// Run: node --require tsx/cjs test/helpers/blob-store-child.ts <fs <dir> | s3 <bucket> <endpoint>> <tag> <count> [--release] [--start <epoch ms>]
import { FsBlobStore } from '../../blobs/fs-store';
import { S3BlobStore } from '../../blobs/s3-store';
import { DEFAULT_BLOB_LIMITS } from '../../blobs/blob-limits';
import { describeText, sharedContent } from './blob-contents';
import { S3_CREDENTIALS } from '../../testkit/s3-server';

const LANES = 8;

async function main(): Promise<void> {
  const [kind, where, endpoint, ...rest] = process.argv.slice(2);
  const args = kind === 's3' ? rest : [endpoint!, ...rest];
  const [tag, count] = args;
  const release = args.includes('--release');
  const store =
    kind === 's3'
      ? new S3BlobStore(
          { bucket: where!, endpoint, region: 'us-east-1', forcePathStyle: true },
          describeText,
          DEFAULT_BLOB_LIMITS,
          { credentials: S3_CREDENTIALS },
        )
      : new FsBlobStore(where!, describeText, DEFAULT_BLOB_LIMITS);
  // Starts when its siblings do, so their puts and releases overlap; 8 lanes of put → read back → release.
  const start = Number(args[args.indexOf('--start') + 1]) || Date.now();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, start - Date.now())));
  const lane = async (first: number) => {
    for (let i = first; i < Number(count); i += LANES) {
      const conversationId = `${tag}-${i}`;
      const bytes = sharedContent(i);
      const ref = await store.put(bytes, { name: `file-${i}.txt`, owner: `owner-${tag}`, conversationId });
      // Held by this conversation, so it must be there, whole, whatever the siblings release.
      const back = await store.get(ref.id);
      if (Buffer.compare(Buffer.from(back), Buffer.from(bytes)) !== 0) throw new Error(`${ref.id} read back changed`);
      if (release) await store.release(conversationId);
      console.log(JSON.stringify({ id: ref.id, size: ref.size, conversationId }));
    }
  };
  await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
  console.log('done');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
