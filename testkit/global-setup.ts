// Jest's global set-up, once per run before any test file starts:
// - the workflow code bundled (or taken from the bundle cache a worker run from source keeps), not once per test file
//   in every jest worker. Tests find a copy through TEST_WORKFLOW_BUNDLE (testkit/temporal.ts); the global tear-down
//   removes it. A bundle named in TEST_WORKFLOW_BUNDLE already is used as it is.
// - the browser tests' Chromium made ready (testkit/chromium.ts), so no test file unpacks it while another launches it.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedWorkflowBundle } from '../worker/bundle-cache';
import { findChromium } from './chromium';
import { RUN_FOLDER_PREFIX } from './run-folder';

export default async function globalSetup(): Promise<void> {
  // Beside the bundling. When it cannot be made, the browser tests fail saying why (they ask again); the rest run.
  const chromium = findChromium().catch(() => undefined);
  if (!process.env.TEST_WORKFLOW_BUNDLE) await bundleForTheRun();
  await chromium;
}

async function bundleForTheRun(): Promise<void> {
  const { code } = await cachedWorkflowBundle(false);
  const dir = path.join(os.tmpdir(), `${RUN_FOLDER_PREFIX}${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'workflow-bundle.js');
  writeFileSync(file, code);
  process.env.TEST_WORKFLOW_BUNDLE = file;
}
