// Replays recorded conversation histories against the current workflow code: a change that would break
// conversations already running in production (non-determinism) fails here. Needs no server. They replay with the
// tracing interceptors built in too: turning OTLP tracing on in a deploy must not change a running conversation.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { cachedWorkflowBundle } from '../../worker/bundle-cache';
import { workflowBundle } from '../../testkit/temporal';

const DIR = path.join(__dirname, '..', 'histories');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
/** Histories whose commands name the workflow's own id (a delegate's id is `<parent id>/<n>-<goal>`) replay under the
 * id they were recorded with; the others under their file name. */
const RECORDED_IDS: Record<string, string> = {
  'delegation.json': 'replay-delegation',
  'tool-question-delegation.json': 'replay-tool-question-delegation',
};

/** Every history replayed by one replay worker (a worker per history cost a core-second each), failures by file. */
async function replayAll(options: ReplayWorkerOptions): Promise<Map<string, Error | undefined>> {
  const histories = files.map((file) => ({
    history: historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8'))),
    workflowId: RECORDED_IDS[file] ?? file,
  }));
  const fileOf = new Map(files.map((file) => [RECORDED_IDS[file] ?? file, file]));
  const results = new Map<string, Error | undefined>();
  for await (const { workflowId, error } of Worker.runReplayHistories(options, histories)) {
    results.set(fileOf.get(workflowId) ?? workflowId, error);
  }
  return results;
}

/** A history's replay passed: it was replayed, and without an error. */
function expectReplayed(results: Map<string, Error | undefined>, file: string): void {
  expect(results.has(file)).toBe(true);
  const error = results.get(file);
  if (error) throw error;
}

describe('replay of recorded histories', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  describe('with the workflow bundle', () => {
    let results: Map<string, Error | undefined>;
    beforeAll(async () => {
      results = await replayAll({ workflowBundle: await workflowBundle() });
    });

    it.each(files)('%s replays deterministically', (file) => expectReplayed(results, file));
  });

  describe('with the tracing interceptors (the traced bundle)', () => {
    let results: Map<string, Error | undefined>;
    beforeAll(async () => {
      // As a traced worker from source gets it: bundled once per code change, shared with the tracing tests' workers.
      const traced = await cachedWorkflowBundle(true);
      // The span exporter's sink, as a traced worker registers it (replays never call it).
      const sinks = { exporter: { export: { fn: () => {}, callDuringReplay: false } } };
      results = await replayAll({ workflowBundle: traced, sinks });
    });

    it.each(files)('%s replays deterministically', (file) => expectReplayed(results, file));
  });
});
