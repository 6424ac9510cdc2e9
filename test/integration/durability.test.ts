import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { MockStore } from '../../tools/define-tool';
import { dataset } from '../../tools/mock-data';
import { endChatSignal, pendingToolCallQuery, usageQuery, userPromptSignal } from '../../core/messages';
import type { Transcript } from '../../core/conversation-types';
import { ptoScript } from '../fixtures/scripts';
import { decide, history, planRequests, say, startConversation, waitForUser, waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';

describe('durability: continue-as-new and worker restarts', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await startTemporal();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it("gives each heartbeating call the conversation's HEARTBEAT_TIMEOUT: 10 s unless set", async () => {
    const timeouts = async (env2: Record<string, string>) => {
      const settings = testSettings({ VALIDATE_PROMPTS: 'false', ...env2 });
      const worker = await startWorker(env, { script: ptoScript, settings });
      try {
        const { handle } = await startConversation(env.client, settings.taskQueue, { goalId: 'goal_hr_pto' });
        await say(handle, 'balance for ada@example.com');
        const events = (await handle.fetchHistory()).events ?? [];
        return events
          .map((e) => e.activityTaskScheduledEventAttributes)
          .filter((a) => a?.activityType?.name === 'planTurn')
          .map((a) => Number(a?.heartbeatTimeout?.seconds));
      } finally {
        await worker.stop();
      }
    };
    // The model calls of the greeting and the turn (the tool between them runs as a local activity).
    expect(await timeouts({})).toEqual([10, 10, 10]);
    expect(await timeouts({ HEARTBEAT_TIMEOUT: '5s' })).toEqual([5, 5, 5]);
  });

  // Every continue-as-new asks for the current build (worker versioning); unversioned, the same carry must hold.
  it.each([
    ['versioned', {}],
    ['unversioned (WORKER_VERSIONING=off)', { WORKER_VERSIONING: 'off' }],
  ])(
    'continues as new past the history budget, carrying summary, recent turns and pending prompts: %s',
    async (_, versioning) => {
      const settings = testSettings({ VALIDATE_PROMPTS: 'false', RECENT_MESSAGES_KEPT: '2', ...versioning });
      const worker = await startWorker(env, { script: ptoScript, settings });
      try {
        const { handle } = await startConversation(env.client, settings.taskQueue, {
          goalId: 'goal_hr_pto',
          historyEventBudget: 20,
        });
        const firstRunId = (await handle.describe()).runId;
        // Three prompts at once: one starts a turn, the others are still queued when the budget is hit.
        const prompts = [
          'balance for ada@example.com',
          'balance for grace@example.com',
          'balance for nobody@example.com',
        ];
        for (const p of prompts) await handle.signal(userPromptSignal, p);

        await waitUntil(
          async () => (await handle.query(usageQuery)).runs >= 2 && (await lastUserText(handle)) === prompts[2],
        );
        await waitForUser(handle);
        expect((await handle.describe()).runId).not.toBe(firstRunId);
        const usage = await handle.query(usageQuery);
        expect(usage.runs).toBeGreaterThanOrEqual(2);
        expect(usage.total.totalTokens).toBeGreaterThan(0);

        await handle.signal(endChatSignal);
        const transcript: Transcript = await handle.result();
        // Nothing lost: every prompt is either kept verbatim or in the summary of older turns.
        for (const p of prompts) {
          const kept = transcript.messages.some((m) => m.kind === 'user' && m.text === p);
          expect(kept || transcript.summary.includes(p)).toBe(true);
        }
        expect(transcript.summary).not.toBe('');
        expect(transcript.messages.filter((m) => m.kind === 'agent').at(-1)).toMatchObject({
          text: 'Sorry: No employee with email nobody@example.com.',
        });
      } finally {
        await worker.stop();
      }
    },
  );

  it('a conversation started on one worker is finished by another after the first stops', async () => {
    const settings = testSettings();
    const store = new MockStore();
    const first = await startWorker(env, { script: ptoScript, settings, store });
    const { handle } = await startConversation(env.client, settings.taskQueue, { goalId: 'goal_hr_pto' });
    const mon = week(4);
    const proposal = await say(handle, `book ${mon} to ${mon} for grace@example.com`);
    expect(proposal.pendingToolCall?.call.tool).toBe('BookPTO');
    await first.stop();

    // With no worker running, the conversation waits; its state lives in Temporal, not in the worker.
    const second = await startWorker(env, { script: ptoScript, settings, store });
    try {
      expect((await handle.query(pendingToolCallQuery))?.call.tool).toBe('BookPTO');
      const done = await decide(handle, { approve: true });
      expect(done.reply).toBe(`Booked ${mon} to ${mon}; 28 hours left.`);
      expect(dataset(store, 'employees').find((e) => e.email === 'grace@example.com')?.ptoHoursLeft).toBe(28);
      const reply = await say(handle, 'balance for ada@example.com');
      expect(reply.reply).toBe('You have 104 hours of PTO left.');
      expect((await history(handle)).filter((m) => m.kind === 'user')).toHaveLength(3);
      // The goal and its tools went with the first model call alone; the second worker never saw it, so it asked the
      // conversation for them (the planContext query) and planned with the same tools: CurrentPTO answered above.
      const requests = await planRequests(handle);
      expect(requests.length).toBeGreaterThanOrEqual(4);
      expect(requests.map((r) => r.goal?.id ?? `#${r.context?.version}`)).toEqual([
        'goal_hr_pto',
        ...requests.slice(1).map(() => '#1'),
      ]);
      await handle.signal(endChatSignal);
    } finally {
      await second.stop();
    }
  });
});

async function lastUserText(handle: Parameters<typeof history>[0]): Promise<string | undefined> {
  const messages = await history(handle);
  return messages.filter((m) => m.kind === 'user').at(-1)?.text;
}
