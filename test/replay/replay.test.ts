// Replays recorded conversation histories against the current workflow code: a change that would break
// conversations already running in production (non-determinism) fails here. Needs no server.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { workflowBundle } from '../helpers/temporal';

const DIR = path.join(__dirname, '..', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

describe('replay of recorded histories', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  it.each(files)('%s replays deterministically', async (file) => {
    const history = historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, file);
  });
});
