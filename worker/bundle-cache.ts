// A worker given no pre-built bundle (run from source: `npm run worker`, `npm start`) bundles the workflow code with
// webpack at start: about a second of CPU, each start. The bundle is kept in node_modules/.cache/agent-workflow-bundle/,
// named by a hash of everything it is made from:
// - every file under the workflow code's folder and core/ (all it may import: lint keeps it so);
// - the lockfile (the versions of the SDK's workflow runtime and of the packages the workflow code imports);
// - the bundle's options and whether the tracing interceptors are built in.
// A later start with the same hash loads that file instead of bundling. So a bundle is never older than the code
// it runs: an edit changes the hash and the next start bundles again.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { PROJECT_ROOT } from '../tools/project-root';
import { TRACING_WORKFLOW_MODULE } from './worker-tracing';
import { WORKFLOW_BUNDLE_OPTIONS, WORKFLOWS_PATH } from './workflow-code';

export const BUNDLE_CACHE_DIR = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'agent-workflow-bundle');
const CODE_FOLDERS = [path.dirname(WORKFLOWS_PATH), path.join(path.dirname(WORKFLOWS_PATH), '..', 'core')];

/** The workflow code bundled, from the cache when its sources are unchanged; `traced`: with the tracing interceptors. */
export async function cachedWorkflowBundle(traced: boolean, dir = BUNDLE_CACHE_DIR): Promise<{ code: string }> {
  const code = codeHash(CODE_FOLDERS);
  const file = path.join(dir, `${code}-${traced ? 'traced' : 'plain'}.js`);
  const kept = readKept(file);
  if (kept !== undefined) return { code: kept };
  const bundle = await bundleWorkflowCode({
    ...WORKFLOW_BUNDLE_OPTIONS,
    logger: new DefaultLogger('WARN'),
    ...(traced ? { workflowInterceptorModules: [TRACING_WORKFLOW_MODULE] } : {}),
  });
  keep(dir, file, `${code}-`, bundle.code);
  return { code: bundle.code };
}

/** The hash of the workflow code a worker from source runs (and bundles): its build, unless WORKER_BUILD_ID says. */
export function sourceCodeHash(): string {
  return codeHash(CODE_FOLDERS);
}

/** The kept bundle, read whole at once: a start of other code may clean the folder up at any moment. */
function readKept(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Stores the bundle for the next start (written whole, then renamed, so a start beside this one never reads half of
 * it), dropping what other code left. Caching is a speed-up only: a folder that cannot be written leaves it off. */
function keep(dir: string, file: string, ours: string, code: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(ours)) rmSync(path.join(dir, name), { force: true });
    }
    writeWhole(file, code);
  } catch {
    // a read-only install, a full disk: the next start bundles again
  }
}

/** Writes `file` whole or not at all (a temporary file renamed over it): a process reading it meanwhile, a worker
 * starting, reads the old content or the new, never half of either. */
export function writeWhole(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}

/** sha256 over the bundle's inputs (the files under `folders`, their names included), shortened to 32 digits. */
export function codeHash(folders: string[], root = PROJECT_ROOT): string {
  const hash = createHash('sha256');
  for (const file of folders.flatMap(filesUnder)) {
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file));
  }
  const lockfile = path.join(root, 'package-lock.json');
  if (existsSync(lockfile)) hash.update(readFileSync(lockfile));
  hash.update(JSON.stringify(WORKFLOW_BUNDLE_OPTIONS));
  return hash.digest('hex').slice(0, 32);
}

/** The files under `dir`, in a fixed order, at any depth. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
