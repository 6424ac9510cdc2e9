// The workflow code bundled once, by `npm run build` (dist/workflow-bundle.js), instead of by webpack in every
// worker at start. Only the compiled worker uses it, and only when it was bundled from the compiled workflow code
// beside it (a hash of dist/workflows/ and dist/core/, all the workflow code imports, is kept with it). A worker run
// from source (tsx) bundles its sources, kept by their hash (bundle-cache.ts). Either way, a bundle can never be older
// than the workflow code it claims to be. A rebuild whose workflow code, lockfile and bundling options are unchanged
// keeps both bundles (webpack twice is most of an incremental build's time).
//
// `node dist/worker/workflow-bundle.js` (the build's step after tsc) writes it, after deleting compiled files whose
// source is gone: the worker loads every module under dist/tools/native and dist/goals/code, so a removed tool must
// not live on in dist/.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { PROJECT_ROOT } from '../tools/project-root';
import { filesUnder, sourceCodeHash, writeWhole } from './bundle-cache';
import { defaultBuildId, type VersioningSettings } from './versioning';
import { TRACING_WORKFLOW_MODULE } from './worker-tracing';
import { WORKFLOW_BUNDLE_OPTIONS } from './workflow-code';

const DIST = path.join(__dirname, '..');
export const WORKFLOW_BUNDLE_FILE = path.join(DIST, 'workflow-bundle.js');
/** The same code with the tracing interceptors built in, for workers with OTLP tracing on (runtime/tracing.ts). Two
 * bundles, so a worker without tracing carries no OpenTelemetry code in every cached conversation. */
export const TRACED_WORKFLOW_BUNDLE_FILE = path.join(DIST, 'workflow-bundle-traced.js');
/** The hash of the compiled workflow code the bundle was made from. */
const BUNDLE_SOURCE_FILE = path.join(DIST, 'workflow-bundle.json');
const COMPILED_WORKFLOWS = path.join(DIST, 'workflows');
/** Everything the workflow code may import (lint keeps it to these two folders). */
const WORKFLOW_CODE_FOLDERS = [COMPILED_WORKFLOWS, path.join(DIST, 'core')];
/** The folders tsconfig.build.json compiles. */
const COMPILED_FOLDERS = [
  'core',
  'workflows',
  'activities',
  'goals',
  'tools',
  'mcp',
  'stream',
  'runtime',
  'worker',
  'client',
  'api',
];

/**
 * The pre-built bundle when this runs compiled (node dist/worker/main.js); undefined from source, where the worker
 * bundles the sources it runs. Throws when the bundle is missing or was made from other workflow code than the
 * compiled code beside it (tsc run without the bundling step).
 */
export function prebuiltWorkflowBundle(traced = false): { codePath: string } | undefined {
  if (path.extname(__filename) !== '.js') return undefined;
  const file = traced ? TRACED_WORKFLOW_BUNDLE_FILE : WORKFLOW_BUNDLE_FILE;
  const rebuild = 'run npm run build (it compiles and bundles together)';
  if (!existsSync(file) || !existsSync(BUNDLE_SOURCE_FILE)) throw new Error(`${file} is missing: ${rebuild}.`);
  const { workflows } = JSON.parse(readFileSync(BUNDLE_SOURCE_FILE, 'utf8')) as { workflows?: string };
  if (workflows !== hashOfWorkflowCode()) {
    throw new Error(`${file} was bundled from other workflow code than ${COMPILED_WORKFLOWS}: ${rebuild}.`);
  }
  return { codePath: file };
}

/** The hash of the workflow code this worker runs: the compiled code's, as the build recorded it beside the bundle
 * (prebuiltWorkflowBundle refuses a start where they differ), or the sources' when run from source. */
export function workflowCodeHash(): string {
  if (path.extname(__filename) !== '.js') return sourceCodeHash();
  const { workflows } = JSON.parse(readFileSync(BUNDLE_SOURCE_FILE, 'utf8')) as { workflows?: string };
  return workflows ?? hashOfWorkflowCode();
}

/** The worker's build id: WORKER_BUILD_ID, else the package version and the hash of the workflow code it runs. */
export function buildIdOf(versioning: VersioningSettings): string {
  return versioning.buildId ?? defaultBuildId(workflowCodeHash());
}

/** sha256 over the compiled workflow code (.js), file names included. */
function hashOfWorkflowCode(): string {
  const hash = createHash('sha256');
  for (const file of WORKFLOW_CODE_FOLDERS.flatMap(filesUnder).filter((f) => f.endsWith('.js')))
    hash.update(path.relative(DIST, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex');
}

/** Compiled files (.js, .js.map, .d.ts) whose .ts source no longer exists. */
function orphans(): string[] {
  return COMPILED_FOLDERS.flatMap((folder) => filesUnder(path.join(DIST, folder))).filter((file) => {
    const source = path.join(PROJECT_ROOT, path.relative(DIST, file)).replace(/(\.d\.ts|\.js|\.js\.map)$/, '.ts');
    return !existsSync(source);
  });
}

/** What else a bundle is made from: the SDK's workflow runtime and the packages the workflow code imports (the
 * lockfile's versions) and the bundling options. */
function hashOfBundleInputs(): string {
  const hash = createHash('sha256').update(JSON.stringify(WORKFLOW_BUNDLE_OPTIONS));
  const lockfile = path.join(PROJECT_ROOT, 'package-lock.json');
  if (existsSync(lockfile)) hash.update(readFileSync(lockfile));
  return hash.digest('hex');
}

/** Both bundles are there and were made from this very code and these inputs: a rebuild of unchanged workflow code
 * (the incremental tsc leaves its files as they were) need not run webpack twice again. */
function bundlesCurrent(made: { workflows: string; inputs: string }): boolean {
  if (![WORKFLOW_BUNDLE_FILE, TRACED_WORKFLOW_BUNDLE_FILE, BUNDLE_SOURCE_FILE].every((f) => existsSync(f)))
    return false;
  const kept = JSON.parse(readFileSync(BUNDLE_SOURCE_FILE, 'utf8')) as { workflows?: string; inputs?: string };
  return kept.workflows === made.workflows && kept.inputs === made.inputs;
}

async function build(): Promise<void> {
  for (const file of orphans()) rmSync(file);
  const made = { workflows: hashOfWorkflowCode(), inputs: hashOfBundleInputs() };
  if (bundlesCurrent(made)) {
    console.log(`workflow code unchanged: ${path.relative(process.cwd(), WORKFLOW_BUNDLE_FILE)} kept`);
    return;
  }
  const logger = new DefaultLogger('WARN');
  // Whole or not at all: a compiled worker may be starting from dist/ meanwhile (a rebuild over a running project).
  writeWhole(WORKFLOW_BUNDLE_FILE, (await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger })).code);
  const workflowInterceptorModules = [TRACING_WORKFLOW_MODULE];
  writeWhole(
    TRACED_WORKFLOW_BUNDLE_FILE,
    (await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger, workflowInterceptorModules })).code,
  );
  writeWhole(BUNDLE_SOURCE_FILE, `${JSON.stringify(made)}\n`);
  console.log(
    `workflow code bundled into ${path.relative(process.cwd(), WORKFLOW_BUNDLE_FILE)} and, with tracing, ${path.relative(process.cwd(), TRACED_WORKFLOW_BUNDLE_FILE)}`,
  );
}

if (require.main === module) {
  if (path.extname(__filename) !== '.js') {
    console.error('error: bundle from the compiled code: npm run build');
    process.exit(1);
  }
  build().catch((err: unknown) => {
    console.error(`error: ${(err as Error).message}`);
    process.exit(1);
  });
}
