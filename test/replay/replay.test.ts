// Replays recorded conversation histories against the current workflow code: a change that would break
// conversations already running in production (non-determinism) fails here. Needs no server. They replay with the
// tracing interceptors built in too: turning OTLP tracing on in a deploy must not change a running conversation.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../worker/workflow-code';
import { TRACING_WORKFLOW_MODULE } from '../../worker/worker-tracing';
import { workflowBundle } from '../../testkit/temporal';

const DIR = path.join(__dirname, '..', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
/** Histories whose commands name the workflow's own id (a delegate's id is `<parent id>/<n>-<goal>`) replay under the
 * id they were recorded with; the others under their file name. */
const RECORDED_IDS: Record<string, string> = {
  'delegation.json': 'replay-delegation',
  'tool-question-delegation.json': 'replay-tool-question-delegation',
};

describe('replay of recorded histories', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  it.each(files)('%s replays deterministically', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, RECORDED_IDS[file] ?? file);
  });

  describe('with the tracing interceptors (the traced bundle)', () => {
    let traced: ReturnType<typeof bundleWorkflowCode>;
    beforeAll(() => {
      traced = bundleWorkflowCode({
        ...WORKFLOW_BUNDLE_OPTIONS,
        workflowInterceptorModules: [TRACING_WORKFLOW_MODULE],
        logger: new DefaultLogger('WARN'),
      });
    });

    it.each(files)('%s replays deterministically', async (file) => {
      const history = historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
      // The span exporter's sink, as a traced worker registers it (replays never call it).
      const sinks = { exporter: { export: { fn: () => {}, callDuringReplay: false } } };
      await Worker.runReplayHistory({ workflowBundle: await traced, sinks }, history, RECORDED_IDS[file] ?? file);
    });
  });
});
