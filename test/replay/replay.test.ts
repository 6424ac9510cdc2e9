// Replays recorded conversation histories against the current workflow code: a change that would break
// conversations already running in production (non-determinism) fails here. Needs no server.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { workflowBundle } from '../helpers/temporal';

const DIR = path.join(__dirname, '..', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
/** Histories whose commands name the workflow's own id (a delegate's id is `<parent id>/<n>-<goal>`) replay under the
 * id they were recorded with; the others under their file name. */
const RECORDED_IDS: Record<string, string> = { 'delegation.json': 'replay-delegation' };

describe('replay of recorded histories', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  it.each(files)('%s replays deterministically', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, RECORDED_IDS[file] ?? file);
  });
});
