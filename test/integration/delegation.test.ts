// Delegation on a real dev server and worker: AskAgent starts child conversations (task mode), several at once,
// whose envelopes come back as the call's result; approvals and questions travel up to the parent's user and the
// answers go down; limits, timeouts and cancellation end as envelopes, never as a failed parent. The model is the
// scripted one, 150 ms per call, so that delegates running side by side overlap visibly in their histories.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ScriptedModel } from '../../activities/llm/scripted-model';
import { dataset } from '../../tools/mock-data';
import { cancelTurnUpdate, delegationsQuery, endChatSignal, usageQuery } from '../../core/messages';
import type { DelegateEnvelope, Delegation } from '../../core/conversation-types';
import { delegationGoalsDir, delegationScript } from '../fixtures/delegation';
import { startApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import { runCli } from '../helpers/cli';
import { decide, history, say, startConversation, toolOutcomes, waitForUser, waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';

const MODEL_MS = 150;
const mon = week(4);
const tue = week(4, 1);

/** The scripted model, answering after a fixed pause like a (fast) real one. */
class SlowScriptedModel extends ScriptedModel {
  override async doStream(options: LanguageModelV3CallOptions) {
    await sleep(MODEL_MS);
    return super.doStream(options);
  }
  override async doGenerate(options: LanguageModelV3CallOptions) {
    await sleep(MODEL_MS);
    return super.doGenerate(options);
  }
}

describe('delegation: agents as tools', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  /** Same goals, DELEGATE_TIMEOUT of 3 s. */
  let shortWorker: Awaited<ReturnType<typeof startWorker>>;
  const goalsDir = delegationGoalsDir();
  const model = () => ({
    model: new SlowScriptedModel(delegationScript),
    provider: 'scripted' as const,
    modelId: 'test',
    description: 'slow test script',
  });

  beforeAll(async () => {
    env = await startTemporal();
    worker = await startWorker(env, {
      model: model(),
      settings: testSettings({ AGENT_GOAL: 'goal_boss', GOALS_DIR: goalsDir }),
    });
    shortWorker = await startWorker(env, {
      model: model(),
      settings: testSettings({ AGENT_GOAL: 'goal_boss', GOALS_DIR: goalsDir, DELEGATE_TIMEOUT: '3s' }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await shortWorker?.stop();
    await env?.teardown();
  });
  beforeEach(() => worker.store.clear());

  const start = async (w = worker) =>
    (await startConversation(env.client, w.worker.options.taskQueue, { goalId: 'goal_boss' })).handle;
  const envelopes = async (handle: WorkflowHandle) =>
    toolOutcomes(await history(handle), 'AskAgent').map((m) =>
      m.outcome.status === 'ok' ? (m.outcome.result as DelegateEnvelope) : m.outcome,
    );
  const child = (id: string) => env.client.workflow.getHandle(id);
  const ada = () => dataset(worker.store, 'employees').find((e) => e.email === 'ada@example.com')!.ptoHoursLeft;

  it('delegates one task: the child runs in task mode and its envelope is the result; usage rolls up', async () => {
    const handle = await start();
    const reply = await say(handle, 'pto only ada@example.com');
    expect(reply.reply).toBe('Boss: ok | 104 hours left.');
    const [envelope] = await envelopes(handle);
    expect(envelope).toEqual({
      status: 'ok',
      summary: '104 hours left.',
      data: expect.objectContaining({ hoursLeft: 104 }),
      usage: expect.objectContaining({ totalTokens: expect.any(Number) }),
    });
    const [d] = await handle.query(delegationsQuery);
    expect(d).toEqual(
      expect.objectContaining({
        childId: `${handle.workflowId}/1-goal_hr_pto`,
        goalId: 'goal_hr_pto',
        agentName: 'PTO assistant',
        state: 'done',
      }),
    );

    // The child: no greeting, the task as its first prompt, ended with the envelope.
    const transcript = await child(d!.childId).result();
    expect(transcript.messages[0]).toEqual({ kind: 'user', text: 'PTO left for ada@example.com', promptId: 1 });
    expect(transcript.envelope).toEqual(envelope);
    const usage = await handle.query(usageQuery);
    expect(usage.total.totalTokens).toBeGreaterThan((envelope as DelegateEnvelope).usage.totalTokens);
  });

  it('runs two delegates of one step in parallel: their model calls overlap in time', async () => {
    const handle = await start();
    const reply = await say(handle, 'both ada@example.com ORD-1001');
    // Results are recorded as the envelopes arrive: whichever delegate finished first comes first.
    expect([
      'Boss: ok ok | 104 hours left. ORD-1001 is shipped.',
      'Boss: ok ok | ORD-1001 is shipped. 104 hours left.',
    ]).toContain(reply.reply);
    const ids = (await handle.query(delegationsQuery)).map((d) => d.childId);
    expect(ids).toEqual([`${handle.workflowId}/1-goal_hr_pto`, `${handle.workflowId}/2-goal_order_status`]);
    const spans = await Promise.all(ids.map((id) => activitySpans(id)));
    // Each child made two model calls and ran one tool; with one after the other, none of A's would overlap B's.
    const overlaps = spans[0]!.some((a) => spans[1]!.some((b) => a.start < b.end && b.start < a.end));
    expect(overlaps).toBe(true);
    // The parent's history: both children started before either finished.
    const events = (await handle.fetchHistory()).events ?? [];
    const kinds = events
      .map((e) =>
        e.childWorkflowExecutionStartedEventAttributes
          ? 'started'
          : e.childWorkflowExecutionCompletedEventAttributes
            ? 'completed'
            : null,
      )
      .filter(Boolean);
    expect(kinds).toEqual(['started', 'started', 'completed', 'completed']);
  });

  it("shows a delegate's approval in the parent; the answer given there goes down and the child continues", async () => {
    const handle = await start();
    const asked = await say(handle, `book ${mon} to ${tue} for ada@example.com`);
    expect(asked.pendingToolCall).toEqual(
      expect.objectContaining({
        tool: 'BookPTO',
        call: expect.objectContaining({ args: expect.objectContaining({ startDate: mon }) }),
        delegate: { agentName: 'PTO assistant', childId: `${handle.workflowId}/1-goal_hr_pto` },
      }),
    );
    expect((await handle.query(delegationsQuery))[0]?.state).toBe('awaiting_approval');
    const done = await decide(handle, { approve: true, callId: asked.pendingToolCall!.call.id });
    expect(done.reply).toBe('Boss: ok | Booked; 88 hours left.');
    expect(ada()).toBe(88);

    // A rejection travels the same way, with its reason.
    const again = await say(handle, `book ${week(5)} to ${week(5)} for ada@example.com`);
    const no = await decide(handle, { approve: false, reason: 'not that week' });
    expect(again.pendingToolCall?.tool).toBe('BookPTO');
    expect(no.reply).toBe('Boss: ok | Not booked (not that week).');
  });

  it("relays a delegate's question (needs_input) and sends the user's answer back down", async () => {
    const handle = await start();
    const question = await say(handle, 'ask me');
    expect(question.reply).toBe('PTO assistant asks: What is your work email?');
    expect((await handle.query(delegationsQuery))[0]?.state).toBe('asking');
    const answer = await say(handle, 'ada@example.com');
    expect(answer.reply).toBe('Boss: ok | 104 hours left.');
    const [d] = await handle.query(delegationsQuery);
    const childMessages = (await child(d!.childId).result()).messages;
    expect(toolOutcomes(childMessages, 'AskUser')[0]?.outcome).toEqual({
      status: 'ok',
      result: { answer: 'ada@example.com' },
    });
  });

  it('a delegate that runs out of time is an error envelope, and the parent carries on', async () => {
    const handle = await start(shortWorker);
    const asked = await say(handle, `book ${mon} to ${tue} for ada@example.com`);
    expect(asked.pendingToolCall?.tool).toBe('BookPTO');
    await waitUntil(async () => (await handle.query(delegationsQuery))[0]?.state === 'done', 20_000);
    const reply = await waitForUser(handle);
    expect(reply?.reply).toBe('Boss: error | The agent did not finish within 3 s (DELEGATE_TIMEOUT).');
    expect(reply?.pendingToolCall).toBeNull();
    const [d] = await handle.query(delegationsQuery);
    expect((await child(d!.childId).describe()).status.name).toBe('TIMED_OUT');
  });

  it('cancelling the turn cancels the delegates (cancelled envelope); ending the parent cancels them too', async () => {
    const handle = await start();
    await say(handle, `book ${mon} to ${tue} for ada@example.com`);
    const stopped = await handle.executeUpdate(cancelTurnUpdate);
    expect(stopped.reply).toMatch(/Stopped, as you asked/);
    const [first] = await handle.query(delegationsQuery);
    expect(first?.envelope?.status).toBe('cancelled');
    await waitUntil(async () => (await child(first!.childId).describe()).status.name === 'CANCELLED');

    await say(handle, `book ${mon} to ${tue} for ada@example.com`);
    const second = (await handle.query(delegationsQuery)).find((d: Delegation) => d.state === 'awaiting_approval');
    await handle.signal(endChatSignal);
    await handle.result();
    await waitUntil(async () => (await child(second!.childId).describe()).status.name === 'CANCELLED');
    // Nothing was booked.
    expect(ada()).toBe(104);
  });

  it('refuses delegation past DELEGATE_MAX_DEPTH with a clear tool error that reaches the user', async () => {
    const handle = await start();
    const reply = await say(handle, 'loop');
    // boss → loop_a (1) → loop_b (2) → loop_a (3): its AskAgent would be depth 4.
    expect(reply.reply).toMatch(
      /^Boss: ok \| \[ok \[ok \[tool_error delegation is already 3 deep; the limit is 3 \(DELEGATE_MAX_DEPTH\)/,
    );
    const [d] = await handle.query(delegationsQuery);
    expect(d?.childId).toBe(`${handle.workflowId}/1-goal_loop_a`);
    const [grand] = await child(d!.childId).query(delegationsQuery);
    expect(grand?.childId).toBe(`${handle.workflowId}/1-goal_loop_a/1-goal_loop_b`);
  });

  it('the CLI answers a delegate approval through the parent, and shows the tree and the folded history', async () => {
    const cli = (...args: string[]) =>
      runCli(args, { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: worker.worker.options.taskQueue });
    const handle = await start();
    const id = handle.workflowId;
    const asked = await cli('say', id, `book ${mon} to ${tue} for ada@example.com`);
    expect(asked.out).toContain(`PTO assistant (delegate ${id}/1-goal_hr_pto) wants to run BookPTO`);
    expect(asked.out).toContain(`agent confirm ${id}`);
    const status = await cli('status', id);
    expect(status.out).toMatch(
      new RegExp(`awaiting approval.*\n  delegate ${id}/1-goal_hr_pto  PTO assistant  awaiting approval`),
    );

    const done = await cli('confirm', id);
    expect(done.out).toContain('agent> Boss: ok | Booked; 88 hours left.');
    const tree = await cli('tree', id);
    expect(tree.out).toBe(
      [
        `${id}  Boss (goal_boss)  waiting for user`,
        `└─ ${id}/1-goal_hr_pto  PTO assistant (goal_hr_pto)  ok: Booked; 88 hours left.`,
        `      task: book ${mon} to ${tue} for ada@example.com`,
        '',
      ].join('\n'),
    );
    // Delegates belong to their parent: `agent list` shows the parent only.
    await waitUntil(async () => (await cli('list')).out.includes(id));
    expect((await cli('list')).out).not.toContain(`${id}/1-goal_hr_pto`);
    const folded = await cli('history', id);
    expect(folded.out).toContain(
      `  ← AskAgent PTO assistant (${id}/1-goal_hr_pto): ok: Booked; 88 hours left.\n    │ user> book ${mon}`,
    );
    expect(folded.out).toContain('    │   ← BookPTO: {"status":"ok"');
  });

  it("the HTTP API shows a delegate's pending call with whose it is, and takes the answer for it", async () => {
    const bus = createStreamBus();
    const api = await startApi({
      agents: new AgentClient(env.client, worker.worker.options.taskQueue),
      bus,
      defaultGoal: 'goal_boss',
      settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
    });
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON, checked by the expectations below
      return { status: res.status, body: (await res.json()) as any };
    };
    try {
      const { body: started } = await post('/api/conversations', { goalId: 'goal_boss' });
      const id: string = started.conversationId;
      const asked = await post(`/api/conversations/${id}/messages`, {
        text: `book ${mon} to ${tue} for ada@example.com`,
      });
      expect(asked.body.pendingToolCall).toMatchObject({
        tool: 'BookPTO',
        delegate: { agentName: 'PTO assistant', childId: `${id}/1-goal_hr_pto` },
      });
      const page = await (await fetch(`${api.url}/api/conversations/${id}`)).json();
      expect(page).toMatchObject({
        state: 'awaiting_approval',
        pendingApproval: { tool: 'BookPTO', delegate: { agentName: 'PTO assistant' } },
      });
      const done = await post(`/api/conversations/${id}/confirm`, {
        approve: true,
        callId: asked.body.pendingToolCall.call.id,
      });
      expect(done).toMatchObject({ status: 200, body: { reply: 'Boss: ok | Booked; 88 hours left.' } });

      // The catalog document: AskAgent's arguments as the schema gives them, its delegates included.
      const doc = await fetch(`${api.url}/api/catalog.md`);
      expect(doc.headers.get('content-type')).toMatch(/^text\/markdown/);
      const text = await doc.text();
      expect(text).toContain('### Boss (`goal_boss`)');
      expect(text).toContain(
        '- delegates (AskAgent): `goal_ecomm_list_orders`, `goal_hr_pto`, `goal_order_status`, `goal_loop_a`, `goal_loop_b`',
      );
      expect(text).toMatch(/\| `goalId` \| one of .*`goal_hr_pto`, .*`goal_order_status`.* \| yes \|/);
    } finally {
      await api.close();
      await bus.close();
    }
  });

  /** When each of a workflow's activities was scheduled and completed, from its history. */
  async function activitySpans(workflowId: string): Promise<{ start: number; end: number }[]> {
    const events = (await child(workflowId).fetchHistory()).events ?? [];
    const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
      Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;
    // From scheduled to completed: a started event is written only once an activity with retries is done.
    const scheduled = new Map<number, number>();
    const spans: { start: number; end: number }[] = [];
    for (const e of events) {
      if (e.activityTaskScheduledEventAttributes) scheduled.set(Number(e.eventId), ms(e.eventTime));
      const done = e.activityTaskCompletedEventAttributes;
      if (done) spans.push({ start: scheduled.get(Number(done.scheduledEventId)) ?? 0, end: ms(e.eventTime) });
    }
    return spans;
  }
});
