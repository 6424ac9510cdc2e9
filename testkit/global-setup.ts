// Jest's global set-up: the workflow code bundled once for the whole run, not once per test file in every jest
// worker (a few seconds of webpack each). Tests find it through TEST_WORKFLOW_BUNDLE (testkit/temporal.ts); the
// global tear-down removes it. A bundle named in TEST_WORKFLOW_BUNDLE already is used as it is.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_OPTIONS } from '../worker/workflow-code';

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_WORKFLOW_BUNDLE) return;
  const { code } = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: new DefaultLogger('WARN') });
  const dir = path.join(os.tmpdir(), `agent-tests-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'workflow-bundle.js');
  writeFileSync(file, code);
  process.env.TEST_WORKFLOW_BUNDLE = file;
}
