// Finds the Temporal CLI: TEMPORAL_CLI_PATH, else `temporal` on PATH (a pyenv shim resolved to its binary).
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

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
      return candidate;
    }
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
