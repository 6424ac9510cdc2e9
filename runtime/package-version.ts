// The product's version, as package.json says: in build ids (worker/versioning.ts) and agent cards (api/a2a).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../tools/project-root';

let version: string | undefined;

export function readPackageVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  return version;
}
