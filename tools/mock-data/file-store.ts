// Keeps the demo data in a JSON file, so a booking made before a restart is still there after it
// (the conversation survives restarts; its world should too).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { MockStore } from '../define-tool';

export function loadFileStore(file: string): MockStore & { save(): void } {
  let entries: [string, unknown][] = [];
  try {
    entries = Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
  } catch {
    // No file yet (or unreadable): start from the seeds.
  }
  const store = new Map(entries) as MockStore & { save(): void };
  store.save = () => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(store), null, 1));
    renameSync(`${file}.tmp`, file);
  };
  return store;
}
