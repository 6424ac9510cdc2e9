// Waits for the user end on their own: an unanswered approval after APPROVAL_TIMEOUT (default 24 h), an idle
// conversation after IDLE_TIMEOUT (default 7 days). The time-skipping test server fires those timers at once.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { dataset } from '../../tools/mock-data';
import { statusQuery, userPromptSignal } from '../../core/messages';
import { ptoScript } from '../fixtures/scripts';
import { history, startConversation, toolOutcomes, waitUntil } from '../helpers/conversation';
import { startTimeSkipping, startWorker, testSettings } from '../../testkit/temporal';

const { EventType } = temporal.api.enums.v1;

describe('approval and idle timeouts (time-skipping server)', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    env = await startTimeSkipping();
    // Default settings: the timeouts under test are the shipped ones.
    worker = await startWorker(env, { script: ptoScript, settings: testSettings() });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  it('declines an approval nobody gave within 24 h, then ends the idle conversation after 7 days, transcript kept', async () => {
    const hoursBefore = dataset(worker.store, 'employees').find((e) => e.email === 'ada@example.com')!.ptoHoursLeft;
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_hr_pto' });
    await handle.signal(userPromptSignal, 'book 2026-12-21 to 2026-12-22 for ada@example.com');
    await waitUntil(async () => (await handle.query(statusQuery)).state === 'awaiting_approval');

    // An hour passes: still waiting. A day passes: the approval has expired and nothing was booked.
    await env.sleep('1 hour');
    expect((await handle.query(statusQuery)).state).toBe('awaiting_approval');
    await env.sleep('23 hours');
    await waitUntil(async () => (await handle.query(statusQuery)).state === 'waiting_for_user');
    const status = await handle.query(statusQuery);
    expect(status.lastReply?.reply).toMatch(/The request to run BookPTO expired: nobody answered within 24 h/);
    expect(toolOutcomes(await history(handle), 'BookPTO').map((m) => m.outcome)).toEqual([
      { status: 'rejected', reason: 'nobody answered within 24 h (APPROVAL_TIMEOUT)' },
    ]);
    expect(dataset(worker.store, 'employees').find((e) => e.email === 'ada@example.com')!.ptoHoursLeft).toBe(
      hoursBefore,
    );

    // Nobody writes again: after 7 days the conversation ends by itself and returns its transcript.
    const transcript = await handle.result();
    expect(transcript.endedBy).toBe('idle');
    expect(transcript.messages.filter((m) => m.kind === 'user').map((m) => m.text)).toContain(
      'book 2026-12-21 to 2026-12-22 for ada@example.com',
    );
    expect(transcript.messages.at(-1)).toEqual({
      kind: 'note',
      text: 'The conversation ended after 7 days without a message (IDLE_TIMEOUT).',
    });

    // The timers the history recorded: the waits for the user, each cut short by work except the two that fired.
    const { events } = await handle.fetchHistory();
    const fired = events!
      .filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_FIRED)
      .map((e) => e.timerFiredEventAttributes!.startedEventId!.toString());
    const started = new Map(
      events!
        .filter((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED)
        .map((e) => [e.eventId!.toString(), Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds)]),
    );
    expect(fired.map((id) => started.get(id))).toEqual([86_400, 7 * 86_400]);
  });

  it('takes shorter timeouts from the settings', async () => {
    const short = await startWorker(env, {
      script: ptoScript,
      settings: testSettings({ APPROVAL_TIMEOUT: '2h', IDLE_TIMEOUT: '30m' }),
    });
    try {
      const { handle } = await startConversation(env.client, short.worker.options.taskQueue, { goalId: 'goal_hr_pto' });
      await handle.signal(userPromptSignal, 'book 2026-12-21 to 2026-12-22 for ada@example.com');
      await waitUntil(async () => (await handle.query(statusQuery)).state === 'awaiting_approval');
      const transcript = await handle.result();
      expect(transcript.endedBy).toBe('idle');
      expect(toolOutcomes(transcript.messages, 'BookPTO').map((m) => m.outcome)).toEqual([
        { status: 'rejected', reason: 'nobody answered within 2 h (APPROVAL_TIMEOUT)' },
      ]);
      expect(transcript.messages.at(-1)).toMatchObject({
        text: expect.stringMatching(/after 30 min without a message/),
      });
    } finally {
      await short.stop();
    }
  });
});
