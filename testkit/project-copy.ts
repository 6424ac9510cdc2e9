// A copy of this project in a folder of its own, for a test that runs two builds of the code side by side (worker
// versioning): its sources copied (so an edit to them changes only the copy, and a worker run from it through tsx
// bundles its own workflow code), its node_modules the project's packages linked one by one, so the copy keeps its own
// node_modules/.cache (bundle cache, build lock) and never empties the project's.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
/** Not code a worker runs: left out of the copy. */
const LEFT_OUT = new Set(['node_modules', 'dist', 'data', '.git', 'test', 'bench', 'evals', 'docs', 'web', 'coverage']);

export function copyProject(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  for (const entry of readdirSync(ROOT)) {
    if (!LEFT_OUT.has(entry)) cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry !== '.cache') symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  return dir;
}
