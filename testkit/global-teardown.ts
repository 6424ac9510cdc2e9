// Jest's global tear-down: the workflow bundle the set-up wrote goes with the run.
import { rmSync } from 'node:fs';
import path from 'node:path';

export default function globalTeardown(): void {
  const bundle = process.env.TEST_WORKFLOW_BUNDLE;
  if (bundle && path.basename(path.dirname(bundle)).startsWith('agent-tests-')) {
    rmSync(path.dirname(bundle), { recursive: true, force: true });
  }
}
