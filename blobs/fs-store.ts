// The blob store in a folder (BLOB_DIR; DATA_DIR/blobs by default): one worker machine, or several processes sharing
// the folder. Every object is written to a temporary file in the same folder tree and renamed into place, so a reader
// never sees half of one, and the same content written twice at once ends as one file.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BlobLimits } from './blob-limits';
import { KeyedBlobStore, type DescribeFile } from './keyed-store';
import type { ObjectSpace } from './object-space';

export class FsBlobStore extends KeyedBlobStore {
  constructor(
    readonly dir: string,
    describe: DescribeFile,
    limits: BlobLimits,
  ) {
    super(new FolderSpace(dir), describe, limits);
  }
}

/** Keys are paths under `root`; `tmp/` holds writes not yet renamed into place. */
export class FolderSpace implements ObjectSpace {
  constructor(private readonly root: string) {}

  async write(key: string, bytes: Uint8Array): Promise<void> {
    const tmpDir = path.join(this.root, 'tmp');
    const tmp = path.join(tmpDir, `${process.pid}-${randomBytes(8).toString('hex')}`);
    await mkdir(tmpDir, { recursive: true });
    await writeFile(tmp, bytes);
    const target = this.path(key);
    // Again when another process removes the (emptied) folder between our mkdir and rename, or during the mkdir.
    for (let attempt = 0; ; attempt++) {
      try {
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmp, target);
        return;
      } catch (err) {
        if (code(err) !== 'ENOENT' || attempt >= 5) {
          await unlink(tmp).catch(() => undefined);
          throw err;
        }
      }
    }
  }

  async read(key: string, range?: { offset: number; length: number }): Promise<Uint8Array | null> {
    let file;
    try {
      file = await open(this.path(key), 'r');
    } catch (err) {
      if (code(err) === 'ENOENT') return null;
      throw err;
    }
    try {
      if (!range) return await file.readFile();
      const { size } = await file.stat();
      const length = Math.max(0, Math.min(range.length, size - range.offset));
      const buffer = Buffer.alloc(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await file.read(buffer, done, length - done, range.offset + done);
        if (!bytesRead) break;
        done += bytesRead;
      }
      return buffer.subarray(0, done);
    } finally {
      await file.close();
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.path(key))).isFile();
    } catch (err) {
      if (code(err) === 'ENOENT') return false;
      throw err;
    }
  }

  async list(folder: string): Promise<string[]> {
    try {
      return (await readdir(this.path(folder), { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
    } catch (err) {
      if (code(err) === 'ENOENT') return [];
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await unlink(this.path(key)).catch((err: unknown) => {
      if (code(err) !== 'ENOENT') throw err;
    });
  }

  async move(from: string, to: string): Promise<boolean> {
    try {
      await mkdir(path.dirname(this.path(to)), { recursive: true });
      await rename(this.path(from), this.path(to));
      return true;
    } catch (err) {
      if (code(err) === 'ENOENT') return false;
      throw err;
    }
  }

  async removeFolder(folder: string): Promise<void> {
    // Not empty (another process has just written into it) or gone already: both fine.
    await rmdir(this.path(folder)).catch(() => undefined);
  }

  private path(key: string): string {
    return path.join(this.root, ...key.split('/'));
  }
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}
