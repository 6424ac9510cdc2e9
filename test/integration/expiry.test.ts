// Waits for the user end on their own: an unanswered approval after APPROVAL_TIMEOUT (default 24 h), an idle
// conversation after IDLE_TIMEOUT (default 7 days). On the dev server, with real timers: the shipped defaults are the
// timers a conversation sets (their firing is Temporal's), and the expiry itself runs out with both set to seconds, as a
// user may set them.
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { dataset } from '../../tools/mock-data';
import { statusQuery } from '../../core/messages';
import { ptoScript } from '../fixtures/scripts';
import { history, say, startConversation, toolOutcomes, waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';

const { EventType } = temporal.api.enums.v1;
const BOOK = `book ${week(4)} to ${week(4, 1)} for ada@example.com`;

/** The timers a conversation's history records, in order: their length, and how they ended (still running: null). */
async function timers(handle: WorkflowHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  const seconds = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(t?.seconds ?? 0) + (t?.nanos ?? 0) / 1e9;
  const ends = new Map<string, { how: 'fired' | 'cancelled'; at: number }>();
  for (const e of events) {
    const fired = e.eventType === EventType.EVENT_TYPE_TIMER_FIRED;
    if (!fired && e.eventType !== EventType.EVENT_TYPE_TIMER_CANCELED) continue;
    const startedId = (e.timerFiredEventAttributes ?? e.timerCanceledEventAttributes)!.startedEventId!.toString();
    ends.set(startedId, { how: fired ? 'fired' : 'cancelled', at: seconds(e.eventTime) });
  }
  return events
    .filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED)
    .map((e) => {
      const end = ends.get(e.eventId!.toString());
      return {
        seconds: Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds),
        ended: end?.how ?? null,
        /** From the start to the end, by the server's clock. */
        lasted: end ? end.at - seconds(e.eventTime) : null,
      };
    });
}

describe('approval and idle timeouts', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await startTemporal();
  }, 60_000);
  afterAll(async () => {
    await env?.teardown();
  });

  it('gives an approval 24 h and a wait for a message 7 days by default', async () => {
    // Default settings: the timeouts under test are the shipped ones.
    const worker = await startWorker(env, { script: ptoScript, settings: testSettings() });
    try {
      const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
        goalId: 'goal_hr_pto',
      });
      const asked = await say(handle, BOOK);
      expect(asked.pendingToolCall).toMatchObject({ tool: 'BookPTO' });
      // The wait for a first message had its 7 days, cut short by the message; the approval has its 24 h, running.
      await waitUntil(async () => (await timers(handle)).some((t) => t.seconds === 86_400));
      expect((await timers(handle)).map(({ seconds, ended }) => ({ seconds, ended }))).toEqual([
        { seconds: 7 * 86_400, ended: 'cancelled' },
        { seconds: 86_400, ended: null },
      ]);
      expect((await handle.query(statusQuery)).state).toBe('awaiting_approval');
    } finally {
      await worker.stop();
    }
  });

  it('declines an approval nobody gave in time, then ends the idle conversation, transcript kept', async () => {
    // As short as a user may set them (whole seconds): real timers that run out within the test.
    const worker = await startWorker(env, {
      script: ptoScript,
      settings: testSettings({ APPROVAL_TIMEOUT: '3s', IDLE_TIMEOUT: '5s' }),
    });
    try {
      const hoursLeft = () =>
        dataset(worker.store, 'employees').find((e) => e.email === 'ada@example.com')!.ptoHoursLeft;
      const hoursBefore = hoursLeft();
      const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
        goalId: 'goal_hr_pto',
      });
      const asked = await say(handle, BOOK);
      expect(asked.pendingToolCall).toMatchObject({ tool: 'BookPTO' });

      // Nobody answers: the approval expires and nothing was booked.
      await waitUntil(async () => (await handle.query(statusQuery)).state === 'waiting_for_user');
      const status = await handle.query(statusQuery);
      expect(status.lastReply?.reply).toMatch(/The request to run BookPTO expired: nobody answered within 3 s/);
      expect(toolOutcomes(await history(handle), 'BookPTO').map((m) => m.outcome)).toEqual([
        { status: 'rejected', reason: 'nobody answered within 3 s (APPROVAL_TIMEOUT)' },
      ]);
      expect(hoursLeft()).toBe(hoursBefore);

      // Nobody writes again: the conversation ends by itself and returns its transcript.
      const transcript = await handle.result();
      expect(transcript.endedBy).toBe('idle');
      expect(transcript.messages.filter((m) => m.kind === 'user').map((m) => m.text)).toContain(BOOK);
      expect(transcript.messages.at(-1)).toEqual({
        kind: 'note',
        text: 'The conversation ended after 5 s without a message (IDLE_TIMEOUT).',
      });

      // The waits for the user as the history recorded them: the first cut short by the message, the approval's and
      // the last one run out, each no sooner than its length.
      const waits = await timers(handle);
      expect(waits.map(({ seconds, ended }) => ({ seconds, ended }))).toEqual([
        { seconds: 5, ended: 'cancelled' },
        { seconds: 3, ended: 'fired' },
        { seconds: 5, ended: 'fired' },
      ]);
      // (A millisecond's slack for the sum of seconds and nanoseconds in floating point.)
      for (const t of waits.filter((w) => w.ended === 'fired'))
        expect(t.lasted).toBeGreaterThanOrEqual(t.seconds - 0.001);
    } finally {
      await worker.stop();
    }
  });
});
