// The S3 blob store (blobs/s3-store.ts) against a real S3-compatible server (moto's server, testkit/s3-server.ts) over HTTP
// with signed requests: the cases of the folder store's test, the store opened from settings (BLOB_STORE=s3), two
// stores on one bucket, and three processes putting, reading back and releasing the same contents at once.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { openBlobStore, readBlobSettings } from '../../blobs';
import { DEFAULT_BLOB_LIMITS, FileTooLarge } from '../../blobs/blob-limits';
import { S3BlobStore } from '../../blobs/s3-store';
import { FileRefusal } from '../../readers/reader';
import { startS3, type RunningS3 } from '../../testkit/s3-server';
import { describeText, SHARED_CONTENTS, sharedContent } from '../helpers/blob-contents';

const ROOT = path.join(__dirname, '..', '..');
const MB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('S3BlobStore on a real S3-compatible server', () => {
  let s3: RunningS3;
  let store: S3BlobStore;
  const stores: S3BlobStore[] = [];
  const open = (bucket: string, limits = { fileMaxBytes: 1 * MB, conversationMaxBytes: 2 * MB }) => {
    const opened = new S3BlobStore(
      { bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true },
      describeText,
      limits,
      { credentials: s3.credentials },
    );
    stores.push(opened);
    return opened;
  };
  /** Every key in the bucket. */
  const keys = async (bucket: string) => {
    const page = await store.s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    return (page.Contents ?? []).map((o) => o.Key!).sort();
  };

  beforeAll(async () => {
    s3 = await startS3(['files', 'shared', 'settings']);
    store = open('files');
  });
  afterAll(async () => {
    for (const s of stores) s.close();
    await s3?.stop();
  });

  it('keeps the same content once under its sha256, its ref beside it, and reads it whole or by range', async () => {
    const bytes = Buffer.from('0123456789');
    const first = await store.put(bytes, { name: 'a.txt', owner: 'alice', conversationId: 'c1' });
    const again = await store.put(bytes, { name: 'b.txt', owner: 'alice', conversationId: 'c1' });
    expect(first).toMatchObject({ id: sha(bytes), size: 10, type: 'text/plain', name: 'a.txt' });
    expect(again).toEqual({ ...first, name: 'b.txt' });
    const id = first.id;
    expect((await keys('files')).filter((k) => k.startsWith('sha256/'))).toEqual([
      `sha256/${id.slice(0, 2)}/${id}`,
      `sha256/${id.slice(0, 2)}/${id}.json`,
    ]);
    expect(Buffer.from(await store.get(id)).toString()).toBe('0123456789');
    expect(Buffer.from(await store.get(id, { offset: 3, length: 4 })).toString()).toBe('3456');
    expect(Buffer.from(await store.get(id, { offset: 8, length: 10 })).toString()).toBe('89');
    expect((await store.get(id, { offset: 50, length: 5 })).length).toBe(0);
    expect(await store.stat(id)).toEqual({ ref: first, owners: ['alice'] });
  });

  it('answers an unknown id as no file', async () => {
    expect(await store.stat('0'.repeat(64))).toBeNull();
    await expect(store.get('0'.repeat(64))).rejects.toThrow(/^No file 0{64}/);
    await expect(store.hold('0'.repeat(64), 'c9', 'alice')).rejects.toThrow(FileRefusal);
  });

  it('holds per conversation and owner, and deletes a blob with the last conversation that held it', async () => {
    const { id } = await store.put(Buffer.from('shared report'), { name: 'r', owner: 'alice', conversationId: 'h1' });
    await store.hold(id, 'h2', 'bob');
    expect((await store.stat(id))?.owners).toEqual(['alice', 'bob']);
    expect(await store.release('h1')).toBe(0);
    expect(Buffer.from(await store.get(id)).toString()).toBe('shared report');
    expect(await store.release('h2')).toBe(1);
    expect(await store.stat(id)).toBeNull();
    expect((await keys('files')).filter((k) => k.includes(id))).toEqual([]);
  });

  it('refuses over FILE_MAX_MB and CONVERSATION_FILES_MAX_MB in words naming them, storing nothing', async () => {
    await expect(
      store.put(Buffer.alloc(MB + 1), { name: 'big.bin', owner: 'alice', conversationId: 'l1' }),
    ).rejects.toThrow(new FileTooLarge('big.bin is 1.0 MB, over the 1 MB a file may be (FILE_MAX_MB).'));
    await store.put(Buffer.alloc(0.9 * MB, 'a'), { name: 'p1', owner: 'alice', conversationId: 'l1' });
    await store.put(Buffer.alloc(0.9 * MB, 'b'), { name: 'p2', owner: 'alice', conversationId: 'l1' });
    await expect(
      store.put(Buffer.alloc(0.9 * MB, 'c'), { name: 'p3', owner: 'alice', conversationId: 'l1' }),
    ).rejects.toThrow(/over the 2 MB a conversation may hold \(CONVERSATION_FILES_MAX_MB\)/);
    expect(await store.release('l1')).toBe(2);
  });

  it('is what BLOB_STORE=s3 opens, and two stores on one bucket see each other’s files and holds', async () => {
    const env = s3.env('settings');
    const settings = readBlobSettings(env, '/unused');
    expect(settings.place).toEqual({
      kind: 's3',
      bucket: 'settings',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
    });
    // The SDK reads the credentials as it always does: here from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = env.AWS_ACCESS_KEY_ID;
    process.env.AWS_SECRET_ACCESS_KEY = env.AWS_SECRET_ACCESS_KEY;
    try {
      const one = openBlobStore(settings, describeText);
      const two = openBlobStore(settings, describeText);
      stores.push(one as S3BlobStore, two as S3BlobStore);
      const ref = await one.put(Buffer.from('from one'), { name: 'x.txt', owner: 'alice', conversationId: 'k1' });
      expect(await two.stat(ref.id)).toEqual({ ref, owners: ['alice'] });
      await two.hold(ref.id, 'k2', 'bob');
      expect(await one.release('k1')).toBe(0);
      expect(Buffer.from(await two.get(ref.id)).toString()).toBe('from one');
      expect(await two.release('k2')).toBe(1);
      expect(await one.stat(ref.id)).toBeNull();
    } finally {
      restore('AWS_ACCESS_KEY_ID', saved.id);
      restore('AWS_SECRET_ACCESS_KEY', saved.secret);
    }
  });

  it('three processes putting, reading back and releasing the same contents at once leave nothing broken', async () => {
    const start = Date.now() + 2_000;
    const runs = await Promise.all(['a', 'b', 'c'].map((tag) => child(s3, 'shared', tag, 24, start)));
    expect(runs.map((r) => r.length)).toEqual([24, 24, 24]);
    expect(new Set(runs.flat().map((p) => p.id)).size).toBe(SHARED_CONTENTS);
    // Everything was released: every blob, hold and object moved aside is gone.
    expect(await keys('shared')).toEqual([]);
    // And the same with one process keeping what it put: each content whole, held by it alone.
    const [, kept] = await Promise.all([
      child(s3, 'shared', 'd', 16, start + 0, true),
      child(s3, 'shared', 'e', 16, Date.now() + 2_000, false),
    ]);
    const reader = open('shared', DEFAULT_BLOB_LIMITS);
    for (let i = 0; i < SHARED_CONTENTS; i++) {
      const bytes = sharedContent(i);
      expect(Buffer.compare(Buffer.from(await reader.get(sha(bytes))), Buffer.from(bytes))).toBe(0);
    }
    for (const p of kept) await reader.release(p.conversationId);
    expect(await keys('shared')).toEqual([]);
  }, 90_000);
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Runs test/helpers/blob-store-child.ts on the bucket; what it put. */
function child(s3: RunningS3, bucket: string, tag: string, count: number, start: number, release = true) {
  return new Promise<{ id: string; conversationId: string }[]>((resolve, reject) => {
    const args = ['--require', 'tsx/cjs', 'test/helpers/blob-store-child.ts', 's3', bucket, s3.endpoint, tag];
    const p = spawn(
      process.execPath,
      [...args, String(count), '--start', String(start), ...(release ? ['--release'] : [])],
      { cwd: ROOT },
    );
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.once('exit', (code) => {
      const lines = out.trim().split('\n');
      if (code !== 0 || lines.at(-1) !== 'done') return reject(new Error(`child ${tag} exited ${code}: ${err}${out}`));
      resolve(lines.slice(0, -1).map((l) => JSON.parse(l) as { id: string; conversationId: string }));
    });
  });
}
