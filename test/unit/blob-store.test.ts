// The filesystem blob store (blobs/fs-store.ts) in a temporary folder: content stored once per sha256, read by range,
// held by conversations and owners, deleted with the last conversation that held it, limits refused in words naming
// the setting — and two or three processes putting and releasing the same contents in one folder at once.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FolderSpace, FsBlobStore } from '../../blobs/fs-store';
import { DEFAULT_BLOB_LIMITS, FileTooLarge } from '../../blobs/blob-limits';
import { readBlobSettings } from '../../blobs/blob-settings';
import { KeyedBlobStore, type DescribeFile } from '../../blobs/keyed-store';
import { FileRefusal } from '../../readers/reader';
import { describeText, SHARED_CONTENTS, sharedContent } from '../helpers/blob-contents';

const ROOT = path.join(__dirname, '..', '..');
const MB = 1024 * 1024;

/** Refuses what starts like a zip, as a reader would a bomb; text otherwise. */
const describeOrRefuse: DescribeFile = async (bytes, name) => {
  if (Buffer.from(bytes.subarray(0, 2)).toString() === 'PK') throw new FileRefusal(`${name} is a zip: not read.`);
  return describeText(bytes, name);
};

/** Every file under `dir`, as paths relative to it. */
function files(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort();
  } catch {
    return [];
  }
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('FsBlobStore', () => {
  let dir: string;
  let store: FsBlobStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'blobs-'));
    store = new FsBlobStore(dir, describeOrRefuse, { fileMaxBytes: 1 * MB, conversationMaxBytes: 2 * MB });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the same content once, under its sha256, with its ref beside it, whatever name it comes with', async () => {
    const bytes = Buffer.from('hello, world\n');
    const first = await store.put(bytes, { name: 'a.txt', owner: 'alice', conversationId: 'c1' });
    const again = await store.put(bytes, { name: 'b.md', owner: 'alice', conversationId: 'c1' });
    expect(first).toEqual({
      id: sha(bytes),
      size: 13,
      type: 'text/plain',
      name: 'a.txt',
      preview: 'hello, world\n',
      facts: { chars: 13 },
    });
    expect(again).toEqual({ ...first, name: 'b.md' });
    const id = first.id;
    expect(files(path.join(dir, 'sha256'))).toEqual([`${id.slice(0, 2)}/${id}`, `${id.slice(0, 2)}/${id}.json`]);
    expect(files(path.join(dir, 'tmp'))).toEqual([]);
    expect(await store.stat(id)).toEqual({ ref: first, owners: ['alice'] });
  });

  it('reads the whole content or a byte range; a range past the end is empty', async () => {
    const bytes = Buffer.from('0123456789');
    const { id } = await store.put(bytes, { name: 'd.txt', owner: 'alice' });
    expect(Buffer.from(await store.get(id)).toString()).toBe('0123456789');
    expect(Buffer.from(await store.get(id, { offset: 3, length: 4 })).toString()).toBe('3456');
    expect(Buffer.from(await store.get(id, { offset: 8, length: 10 })).toString()).toBe('89');
    expect((await store.get(id, { offset: 50, length: 5 })).length).toBe(0);
    await expect(store.get(id, { offset: -1, length: 2 })).rejects.toThrow(FileRefusal);
  });

  it('answers an unknown or malformed id as no file, in words', async () => {
    expect(await store.stat('0'.repeat(64))).toBeNull();
    expect(await store.stat('../../etc/passwd')).toBeNull();
    await expect(store.get('0'.repeat(64))).rejects.toThrow(/^No file 0{64}: it was never stored/);
    await expect(store.get('../x')).rejects.toThrow(FileRefusal);
    await expect(store.hold('f'.repeat(64), 'c1', 'alice')).rejects.toThrow(/No file f{64}/);
  });

  it('holds a blob per conversation and owner, and deletes it with the last conversation that held it', async () => {
    const bytes = Buffer.from('shared report');
    const { id } = await store.put(bytes, { name: 'r.txt', owner: 'alice', conversationId: 'c1' });
    await store.hold(id, 'c2', 'bob');
    await store.hold(id, 'c2', 'bob'); // twice is once
    expect((await store.stat(id))?.owners).toEqual(['alice', 'bob']);
    const kept = await store.put(Buffer.from('kept, no conversation'), { name: 'k.txt', owner: 'carol' });

    expect(await store.release('c1')).toBe(0);
    expect(Buffer.from(await store.get(id)).toString()).toBe('shared report');
    expect(await store.release('c2')).toBe(1);
    expect(await store.stat(id)).toBeNull();
    await expect(store.get(id)).rejects.toThrow(/No file/);
    expect(await store.release('c2')).toBe(0);
    // What no conversation held is not touched; nothing of the deleted blob is left, holds and folders included.
    expect((await store.stat(kept.id))?.owners).toEqual(['carol']);
    expect(files(dir)).toEqual(
      [
        `holds/${kept.id}/o.carol`,
        `sha256/${kept.id.slice(0, 2)}/${kept.id}`,
        `sha256/${kept.id.slice(0, 2)}/${kept.id}.json`,
      ].sort(),
    );
    expect(readdirSync(path.join(dir, 'conversations'))).toEqual([]);
  });

  it('keeps conversation ids and owners that are not file names as safe names', async () => {
    const { id } = await store.put(Buffer.from('x'), { name: 'x', owner: '../o', conversationId: '../../c/..' });
    expect((await store.stat(id))?.owners).toEqual(['../o']);
    expect(files(dir).every((f) => !f.includes('..'))).toBe(true);
    expect(await store.release('../../c/..')).toBe(1);
  });

  it('refuses a file over FILE_MAX_MB and a conversation over CONVERSATION_FILES_MAX_MB, writing nothing', async () => {
    const big = Buffer.alloc(1 * MB + 1, 'a');
    await expect(store.put(big, { name: 'big.txt', owner: 'alice', conversationId: 'c1' })).rejects.toThrow(
      new FileTooLarge('big.txt is 1.0 MB, over the 1 MB a file may be (FILE_MAX_MB).'),
    );
    const part = (n: number) => Buffer.alloc(0.9 * MB, String(n));
    await store.put(part(1), { name: 'p1.txt', owner: 'alice', conversationId: 'c1' });
    await store.put(part(2), { name: 'p2.txt', owner: 'alice', conversationId: 'c1' });
    // The same file again costs nothing more; a third does not fit.
    await store.put(part(2), { name: 'p2-again.txt', owner: 'alice', conversationId: 'c1' });
    const third = store.put(part(3), { name: 'p3.txt', owner: 'alice', conversationId: 'c1' });
    await expect(third).rejects.toThrow(FileTooLarge);
    await expect(third).rejects.toThrow(
      "p3.txt (922 KB) would bring this conversation's files to 2.7 MB, over the 2 MB a conversation may hold (CONVERSATION_FILES_MAX_MB).",
    );
    const { id } = await store.put(part(3), { name: 'p3.txt', owner: 'alice', conversationId: 'c2' });
    await expect(store.hold(id, 'c1', 'alice')).rejects.toThrow(/CONVERSATION_FILES_MAX_MB/);
    expect(files(path.join(dir, 'sha256')).filter((f) => !f.endsWith('.json'))).toHaveLength(3);
  });

  it("stores nothing of what the reader refuses, and says the reader's words", async () => {
    await expect(
      store.put(Buffer.from('PK\u0003\u0004...'), { name: 'bomb.zip', owner: 'a', conversationId: 'c' }),
    ).rejects.toThrow(new FileRefusal('bomb.zip is a zip: not read.'));
    expect(files(dir)).toEqual([]);
  });
});

describe('KeyedBlobStore: a release that puts a blob back', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'blobs-interleaved-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('deletes it after all when its new holder let go while it was aside', async () => {
    // Two stores over one folder, as two processes. Store X releases the last conversation holding a blob; while X has
    // it aside, the other takes it up (its put writes it again) and, while X puts it back, lets it go (its release
    // finds it away and deletes nothing). Without a second look X would leave it behind with no holder.
    const bytes = Buffer.from('shared between two processes');
    const id = sha(bytes);
    const other = new KeyedBlobStore(new FolderSpace(dir), describeText, DEFAULT_BLOB_LIMITS);
    const steps: Record<string, () => Promise<unknown>> = {
      // Before X's second look for holds: the other takes it up.
      'list holds/2': () => other.put(bytes, { name: 'b.txt', owner: 'bob', conversationId: 'cb' }),
      // Before X puts the content back: the other lets it go.
      'move back/1': () => other.release('cb'),
    };
    const seen: Record<string, number> = {};
    const at = async (step: string) => {
      seen[step] = (seen[step] ?? 0) + 1;
      await steps[`${step}/${seen[step]}`]?.();
    };
    const folder = new FolderSpace(dir);
    const x = new KeyedBlobStore(
      Object.assign(Object.create(folder) as FolderSpace, {
        list: async (key: string) => {
          if (key === `holds/${id}`) await at('list holds');
          return folder.list(key);
        },
        move: async (from: string, to: string) => {
          if (from.startsWith('trash/')) await at('move back');
          return folder.move(from, to);
        },
      }),
      describeText,
      DEFAULT_BLOB_LIMITS,
    );
    await x.put(bytes, { name: 'a.txt', owner: 'ada', conversationId: 'ca' });
    await x.release('ca');
    expect(seen['move back']).toBeGreaterThan(0);
    expect(files(dir)).toEqual([]);
  });
});

describe('FsBlobStore: a release killed mid-delete', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'blobs-killed-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loses nothing held: a conversation that puts or holds the contents after the kill reads them whole', async () => {
    const store = new FsBlobStore(dir, describeText, DEFAULT_BLOB_LIMITS);
    const bytes = sharedContent(7);
    const { id } = await store.put(bytes, { name: 'a.txt', owner: 'owner-a', conversationId: 'a' });
    // Another process releases conversation a and dies with the blob moved aside (the only copy of its bytes).
    const killed = await new Promise<NodeJS.Signals | null>((resolve) => {
      const p = spawn(process.execPath, ['--require', 'tsx/cjs', 'test/helpers/blob-release-killed.ts', dir, 'a'], {
        cwd: ROOT,
        stdio: 'ignore',
      });
      p.once('exit', (_code, signal) => resolve(signal));
    });
    expect(killed).toBe('SIGKILL');
    expect(files(dir).filter((f) => f.startsWith('trash/'))).toHaveLength(1);
    // The same contents put by another conversation are written again, whole, once; a third conversation holds them.
    await store.put(bytes, { name: 'b.txt', owner: 'owner-b', conversationId: 'b' });
    await store.hold(id, 'c', 'owner-c');
    expect(Buffer.compare(Buffer.from(await store.get(id)), Buffer.from(bytes))).toBe(0);
    // Owners stay until the blob is deleted, as when a releases while others hold it.
    expect((await store.stat(id))?.owners).toEqual(['owner-a', 'owner-b', 'owner-c']);
    // The release retried (as its activity is, on another worker) deletes nothing held; released by all three, the
    // blob is deleted once, and what the killed process had moved aside is all that is left.
    expect(await store.release('a')).toBe(0);
    expect((await store.release('b')) + (await store.release('c'))).toBe(1);
    expect(files(dir).every((f) => f.startsWith('trash/'))).toBe(true);
    expect(files(dir)).toHaveLength(1);
  }, 30_000);
});

describe('FsBlobStore shared by processes', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'blobs-shared-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('two processes putting the same contents at once end with one whole file each, held by both', async () => {
    const [a, b] = await Promise.all([child(dir, 'a', 24), child(dir, 'b', 24)]);
    const ids = [...new Set([...a, ...b].map((p) => p.id))].sort();
    const expected = Array.from({ length: SHARED_CONTENTS }, (_, i) => sharedContent(i));
    expect(ids).toEqual(expected.map(sha).sort());
    expect(files(path.join(dir, 'sha256'))).toHaveLength(2 * SHARED_CONTENTS);
    expect(files(path.join(dir, 'tmp'))).toEqual([]);
    const store = new FsBlobStore(dir, describeText, DEFAULT_BLOB_LIMITS);
    for (const bytes of expected) {
      expect(Buffer.compare(Buffer.from(await store.get(sha(bytes))), Buffer.from(bytes))).toBe(0);
      expect((await store.stat(sha(bytes)))?.owners).toEqual(['owner-a', 'owner-b']);
    }
    let deleted = 0;
    for (const p of [...a, ...b]) deleted += await store.release(p.conversationId);
    expect(deleted).toBe(SHARED_CONTENTS);
    expect(files(dir)).toEqual([]);
  }, 60_000);

  it('processes releasing what another takes up at once never leave a held blob without its bytes', async () => {
    // Each child puts, reads back while it holds, then releases: a read-back that fails fails the child.
    const runs = await Promise.all(['a', 'b', 'c'].map((tag) => child(dir, tag, 96, true)));
    expect(runs.map((r) => r.length)).toEqual([96, 96, 96]);
    // The last release deleted each blob, its holds and what was moved aside to delete it.
    expect(files(dir)).toEqual([]);
  }, 60_000);
});

/** Runs test/helpers/blob-store-child.ts on `dir`; what it put. */
function child(dir: string, tag: string, count: number, release = false, start = Date.now() + 1_500) {
  return new Promise<{ id: string; conversationId: string }[]>((resolve, reject) => {
    const args = [
      '--require',
      'tsx/cjs',
      'test/helpers/blob-store-child.ts',
      'fs',
      dir,
      tag,
      String(count),
      '--start',
      String(start),
    ];
    const p = spawn(process.execPath, release ? [...args, '--release'] : args, { cwd: ROOT });
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

describe('readBlobSettings', () => {
  const dataDir = '/var/agent';

  it('keeps files in DATA_DIR/blobs, 25 MB a file and 200 MB a conversation, unless told otherwise', () => {
    expect(readBlobSettings({}, dataDir)).toEqual({
      place: { kind: 'fs', dir: '/var/agent/blobs' },
      limits: { fileMaxBytes: 25 * MB, conversationMaxBytes: 200 * MB },
    });
    expect(
      readBlobSettings({ BLOB_DIR: '/srv/files', FILE_MAX_MB: '0.5', CONVERSATION_FILES_MAX_MB: '10' }, dataDir),
    ).toEqual({
      place: { kind: 'fs', dir: '/srv/files' },
      limits: { fileMaxBytes: 0.5 * MB, conversationMaxBytes: 10 * MB },
    });
  });

  it('reads an S3-compatible bucket: path-style by default when an endpoint is named', () => {
    expect(
      readBlobSettings({ BLOB_STORE: 's3', S3_BUCKET: 'files', S3_ENDPOINT: 'http://minio:9000' }, dataDir).place,
    ).toEqual({
      kind: 's3',
      bucket: 'files',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    expect(
      readBlobSettings(
        { BLOB_STORE: 'S3', S3_BUCKET: 'files', S3_REGION: 'eu-west-1', S3_FORCE_PATH_STYLE: 'no' },
        dataDir,
      ).place,
    ).toEqual({ kind: 's3', bucket: 'files', region: 'eu-west-1', forcePathStyle: false });
  });

  it.each([
    [{ BLOB_STORE: 'disk' }, 'BLOB_STORE must be fs or s3, got "disk"'],
    [{ BLOB_STORE: 's3' }, 'BLOB_STORE=s3 needs S3_BUCKET'],
    [{ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT must be an http(s) URL'],
    [{ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'maybe' }, 'S3_FORCE_PATH_STYLE must be true or false'],
    [{ FILE_MAX_MB: 'lots' }, 'FILE_MAX_MB must be a number of megabytes above 0 (such as 25), got "lots"'],
    [{ FILE_MAX_MB: '0' }, 'FILE_MAX_MB must be a number of megabytes above 0'],
    [{ CONVERSATION_FILES_MAX_MB: '-1' }, 'CONVERSATION_FILES_MAX_MB must be a number of megabytes above 0'],
    [
      { FILE_MAX_MB: '50', CONVERSATION_FILES_MAX_MB: '40' },
      'CONVERSATION_FILES_MAX_MB (40) must be at least FILE_MAX_MB (50)',
    ],
  ])('refuses %j naming the setting', (env, message) => {
    expect(() => readBlobSettings(env, dataDir)).toThrow(message);
  });
});
