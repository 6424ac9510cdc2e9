// The web chat, built once for a whole jest run and shared by every test file that serves it (each used to build its
// own copy: a few seconds of Vite apiece). The first file to ask builds into the run's folder (the one the global
// set-up made for the workflow bundle, removed by the tear-down); the others wait for it. Built aside and renamed into
// place, so nobody ever serves a half-written folder, and no test empties it under another (as dist/web could be).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../worker/worker-settings';
import { runFolder } from './run-folder';

const WAIT_MS = 180_000;

/** The built web chat's folder (with its index.html). */
export async function builtWebChat(): Promise<string> {
  // Outside a jest run with our global set-up: a folder of this caller's own.
  const root = runFolder() ?? mkdtempSync(path.join(tmpdir(), 'web-chat-'));
  const out = path.join(root, 'web');
  const failed = path.join(root, 'web.failed');
  try {
    mkdirSync(path.join(root, 'web.lock'));
  } catch {
    return waitFor(out, failed);
  }
  const aside = `${out}.building`;
  try {
    await promisify(execFile)('npm', ['run', '-s', 'build:web', '--', '--outDir', aside, '--logLevel', 'warn'], {
      cwd: PROJECT_ROOT,
    });
    renameSync(aside, out);
    return out;
  } catch (err) {
    writeFileSync(failed, (err as Error).message);
    throw err;
  }
}

async function waitFor(out: string, failed: string): Promise<string> {
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(out)) {
    if (existsSync(failed)) throw new Error(`building the web chat failed: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`the web chat was not built within ${WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return out;
}
