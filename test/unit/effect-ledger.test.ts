// The native-tool dispatcher runs a state-changing tool once per call: a retry of the same activity (same
// workflow, run and activity id) answers with the recorded result; read-only tools simply run again. The process-
// crash version of this, with a real worker killed mid-call, is test/integration/faults.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createToolDispatcher } from '../../activities/tool-activities';
import { MockStore, type ToolContext } from '../../tools/define-tool';
import { dataset } from '../../tools/mock-data';
import { loadFileStore } from '../../tools/mock-data/file-store';
import { loadNativeTools } from '../../tools/tool-registry';
import { isoDay } from '../../core/days';
import { week } from '../../testkit/days';

const tools = loadNativeTools();
/** The tools' clock: one instant for the whole file, the booking four weeks after it. */
const now = new Date();
const ada = (store: MockStore) => dataset(store, 'employees').find((e) => e.email === 'ada@example.com')!;

function attempt(
  store: MockStore,
  activityType: string,
  args: Record<string, unknown>,
  activityId = '7',
  attemptNo = 1,
) {
  const ctx: ToolContext = {
    store,
    now: () => now,
    services: { trainServiceUrl: 'http://127.0.0.1:1' },
  };
  const env = new MockActivityEnvironment({
    activityType,
    activityId,
    attempt: attemptNo,
    workflowExecution: { workflowId: 'conv-1', runId: 'run-1' },
  });
  return env.run(createToolDispatcher(tools, ctx), args);
}

const booking = { email: 'ada@example.com', startDate: week(4, 0, isoDay(now)), endDate: week(4, 1, isoDay(now)) };

describe('exactly-once native tools', () => {
  it('a retried BookPTO answers with the first result and books once', async () => {
    const store = new MockStore();
    const first = await attempt(store, 'BookPTO', booking);
    const retry = await attempt(store, 'BookPTO', booking, '7', 2);
    expect(first).toEqual({ status: 'ok', result: expect.objectContaining({ booked: true, hoursLeft: 88 }) });
    expect(retry).toEqual(first);
    expect(ada(store).ptoHoursLeft).toBe(88);
    expect(ada(store).bookings).toHaveLength(1);
  });

  it('another call (another activity) books again', async () => {
    const store = new MockStore();
    await attempt(store, 'BookPTO', booking, '7');
    await attempt(store, 'BookPTO', booking, '9');
    expect(ada(store).bookings).toHaveLength(2);
  });

  it('the record survives a restart with the effect: both are in the one file the store writes', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ledger-')), 'mock-data.json');
    const first = await attempt(loadFileStore(file), 'BookPTO', booking);
    // A new process: the file holds the booking and its record, so the retry does not book again.
    const again = loadFileStore(file);
    expect(await attempt(again, 'BookPTO', booking, '7', 2)).toEqual(first);
    expect(ada(again).bookings).toHaveLength(1);
  });

  it('read-only tools keep no record: a retry reads afresh', async () => {
    const store = new MockStore();
    await attempt(store, 'CurrentPTO', { email: 'ada@example.com' });
    expect(store.get('effect-ledger')).toBeUndefined();
  });

  it('every tool that changes state is exactly-once by default; read-only ones say so', () => {
    const readOnly = tools
      .all()
      .filter((t) => t.readOnly)
      .map((t) => t.name);
    expect(readOnly).toEqual(expect.arrayContaining(['CurrentPTO', 'FuturePTOCalc', 'SearchTrains', 'GetOrder']));
    for (const name of [
      'BookPTO',
      'MoveMoney',
      'ApplyForLoan',
      'AddToCart',
      'BookTrains',
      'CreateInvoice',
      'GiveHint',
      'GuessTreasureLocation',
    ]) {
      expect(tools.get(name)?.readOnly ?? false).toBe(false);
    }
  });
});
