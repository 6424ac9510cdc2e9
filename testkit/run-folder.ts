// The folder Jest's global set-up makes for one run (beside the workflow bundle it writes there), where what a run
// needs once is made by the first test file to ask (the web chat, the build's stamp); the global tear-down removes it.
import path from 'node:path';

export const RUN_FOLDER_PREFIX = 'agent-tests-';

/** The run's folder; undefined outside a jest run with our global set-up (a test file run some other way). */
export function runFolder(): string | undefined {
  const bundle = process.env.TEST_WORKFLOW_BUNDLE;
  return bundle && path.basename(path.dirname(bundle)).startsWith(RUN_FOLDER_PREFIX) ? path.dirname(bundle) : undefined;
}
