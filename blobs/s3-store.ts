// The blob store on an S3-compatible bucket (BLOB_STORE=s3): workers on several machines share it. A PUT is whole
// or absent, as the protocol needs; a move is a copy then a delete (S3 has no rename), which the protocol allows for:
// it only moves a blob aside to delete it, and puts it back if a conversation took it up meanwhile.
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { BlobLimits } from './blob-limits';
import { KeyedBlobStore, type DescribeFile } from './keyed-store';
import type { ObjectSpace } from './object-space';

export interface S3Place {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Keys under this prefix (none by default): several deployments may share a bucket. */
  prefix?: string;
}

export class S3BlobStore extends KeyedBlobStore {
  readonly s3: S3Client;

  constructor(place: S3Place, describe: DescribeFile, limits: BlobLimits, config: S3ClientConfig = {}) {
    const s3 = new S3Client({
      region: place.region,
      forcePathStyle: place.forcePathStyle,
      ...(place.endpoint ? { endpoint: place.endpoint } : {}),
      ...config,
    });
    super(new BucketSpace(s3, place.bucket, place.prefix ?? ''), describe, limits);
    this.s3 = s3;
  }

  close(): void {
    this.s3.destroy();
  }
}

export class BucketSpace implements ObjectSpace {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  async write(key: string, bytes: Uint8Array): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: bytes }));
  }

  async read(key: string, range?: { offset: number; length: number }): Promise<Uint8Array | null> {
    if (range?.length === 0) return (await this.exists(key)) ? new Uint8Array() : null;
    try {
      const answer = await this.s3.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key(key),
          ...(range ? { Range: `bytes=${range.offset}-${range.offset + range.length - 1}` } : {}),
        }),
      );
      return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
    } catch (err) {
      if (missing(err)) return null;
      // A range that starts past the end: nothing there, as a file read gives.
      if (range && status(err) === 416) return (await this.exists(key)) ? new Uint8Array() : null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }

  async list(folder: string): Promise<string[]> {
    const prefix = `${this.key(folder)}/`;
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.s3.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) names.push(o.Key.slice(prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return names;
  }

  async remove(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  async move(from: string, to: string): Promise<boolean> {
    try {
      await this.s3.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: this.key(to),
          CopySource: `${this.bucket}/${this.key(from).split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
    await this.remove(from);
    return true;
  }

  async removeFolder(): Promise<void> {
    // A bucket has no folders: the last key under a prefix takes the prefix with it.
  }

  private key(key: string): string {
    return this.prefix ? `${this.prefix.replace(/\/+$/, '')}/${key}` : key;
  }
}

function status(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

function missing(err: unknown): boolean {
  return (
    err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || status(err) === 404)
  );
}
