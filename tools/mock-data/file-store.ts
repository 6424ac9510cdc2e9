// Keeps the demo data in a JSON file, so a booking made before a restart is still there after it
// (the conversation survives restarts; its world should too).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MockStore } from '../define-tool';

class FileStore extends MockStore {
  constructor(
    private readonly file: string,
    entries: [string, unknown][],
    now?: () => Date,
  ) {
    super(entries, now);
  }

  /** Written whole to a temporary file, then renamed: a crash mid-write leaves the previous file intact. */
  override persist(): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileSync(`${this.file}.tmp`, JSON.stringify(Object.fromEntries(this), null, 1));
    renameSync(`${this.file}.tmp`, this.file);
  }
}

/** The demo data of `file`; data seeded anew is dated by `now` (the day it is first written, kept in the file). */
export function loadFileStore(file: string, now?: () => Date): MockStore {
  let entries: [string, unknown][] = [];
  try {
    entries = Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
  } catch {
    // No file yet (or unreadable): start from the seeds.
  }
  return new FileStore(file, entries, now);
}
