// Jest's global set-up: the workflow code bundled once for the whole run (or taken from the bundle cache a worker run
// from source keeps), not once per test file in every jest worker. Tests find a copy through TEST_WORKFLOW_BUNDLE
// (testkit/temporal.ts); the global tear-down removes it. A bundle named in TEST_WORKFLOW_BUNDLE already is used as it is.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cachedWorkflowBundle } from '../worker/bundle-cache';

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_WORKFLOW_BUNDLE) return;
  const { code } = await cachedWorkflowBundle(false);
  const dir = path.join(os.tmpdir(), `agent-tests-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'workflow-bundle.js');
  writeFileSync(file, code);
  process.env.TEST_WORKFLOW_BUNDLE = file;
}
