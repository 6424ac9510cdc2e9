// `npm run build` writes dist/ in place. Two builds at once (the compiled-worker and client-package tests, the bench
// beside the suite in CI) could each start a process on the other's half-written files. This runs them one at a time
// across processes: the lock is a directory (made atomically) holding its owner's pid; a lock whose owner is gone is
// taken over. Within one jest run the tests build once (buildOncePerRun).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runFolder } from './run-folder';

const BUILD_LOCK = path.join(__dirname, '..', 'node_modules', '.cache', 'build.lock');

export async function withBuildLock<T>(build: () => Promise<T>, lock = BUILD_LOCK): Promise<T> {
  mkdirSync(path.dirname(lock), { recursive: true });
  while (!take(lock)) await new Promise((r) => setTimeout(r, 200));
  try {
    return await build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function take(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch {
    if (ownerAlive(lock)) return false;
    rmSync(lock, { recursive: true, force: true }); // its owner died holding it
    return false;
  }
  writeFileSync(path.join(lock, 'pid'), String(process.pid));
  return true;
}

function ownerAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(lock, 'pid'), 'utf8'));
  } catch {
    return true; // just made, its pid not written yet
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * `npm run build` once per jest run: the first test file to ask builds (under the lock), the others find the run's
 * stamp and build nothing. Outside a jest run with our global set-up, every call builds.
 */
export async function buildOncePerRun(
  build: () => Promise<unknown>,
  opts: { lock?: string; folder?: string } = {},
): Promise<void> {
  const folder = opts.folder ?? runFolder();
  const stamp = folder && path.join(folder, 'built');
  await withBuildLock(async () => {
    if (stamp && existsSync(stamp)) return;
    await build();
    if (stamp) writeFileSync(stamp, String(process.pid));
  }, opts.lock);
}
