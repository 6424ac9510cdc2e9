// Delegation under worker crashes, with real processes: a real dev server, real worker processes (worker/main.ts,
// demo data in DATA_DIR) killed with SIGKILL, the scripted model. A boss agent hands two tasks of one step to two
// delegates, which both stop to wait for the user (an approval, a question). The worker is killed twice:
//   1. while both delegates wait: the next worker picks up parent and children where they were;
//   2. after the approval went down and BookPTO acted, before Temporal heard of it (a gRPC proxy holds the report).
// Nothing is lost or done twice: the children keep their runs, the parent gets each envelope once, one booking.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Employee } from '../../tools/mock-data';
import { confirmUpdate, delegationsQuery, pendingToolCallQuery } from '../../core/messages';
import type { DelegateEnvelope } from '../../core/conversation-types';
import { delegationGoalsDir, delegationScript } from '../fixtures/delegation';
import { history, say, toolOutcomes, waitUntil, startConversationForFaults } from '../helpers/conversation';
import { GrpcProxy } from '../../testkit/grpc-proxy';
import { startTemporal } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { week } from '../../testkit/days';

type HistoryEvents = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>;

describe('delegation faults: worker processes killed while delegates work', () => {
  let env: TestWorkflowEnvironment;
  let proxy: GrpcProxy;
  let dataDir: string;
  let baseEnv: Record<string, string>;
  const running: WorkerProcess[] = [];
  const mon = week(4);
  const tue = week(4, 1);

  beforeAll(async () => {
    env = await startTemporal();
    proxy = await GrpcProxy.start(env.address);
    dataDir = mkdtempSync(path.join(tmpdir(), 'delegation-faults-'));
    writeFileSync(path.join(dataDir, 'script.json'), JSON.stringify(delegationScript));
    baseEnv = {
      TEMPORAL_ADDRESS: proxy.address,
      TASK_QUEUE: `delegation-faults-${process.pid}`,
      AGENT_GOAL: 'goal_boss',
      GOALS_DIR: delegationGoalsDir(),
      DATA_DIR: dataDir,
      LLM_MODEL: `scripted:${path.join(dataDir, 'script.json')}`,
      VALIDATE_PROMPTS: 'false',
      SHOW_CONFIRM: 'true',
      MCP_ENDPOINTS_FILE: path.join(dataDir, 'no-mcp-endpoints.json'),
    };
  });
  afterEach(() => proxy.release());
  afterAll(async () => {
    for (const w of running) await w.kill();
    await proxy?.close();
    await env?.teardown();
  });

  async function worker(): Promise<WorkerProcess> {
    const w = await startWorkerProcess(baseEnv);
    running.push(w);
    return w;
  }

  const employee = (email: string) =>
    (JSON.parse(readFileSync(path.join(dataDir, 'mock-data.json'), 'utf8')).employees as Employee[]).find(
      (e) => e.email === email,
    )!;
  const events = async (workflowId: string): Promise<HistoryEvents> =>
    (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  /** The children the parent started, by workflow id, with the run each started as. */
  const childRuns = (parent: HistoryEvents) =>
    new Map(
      parent.flatMap((e) =>
        e.childWorkflowExecutionStartedEventAttributes
          ? [
              [
                e.childWorkflowExecutionStartedEventAttributes.workflowExecution!.workflowId!,
                e.childWorkflowExecutionStartedEventAttributes.workflowExecution!.runId!,
              ],
            ]
          : [],
      ),
    );
  const childrenCompleted = (parent: HistoryEvents) =>
    parent
      .filter((e) => e.childWorkflowExecutionCompletedEventAttributes)
      .map((e) => e.childWorkflowExecutionCompletedEventAttributes!.workflowExecution!.workflowId!);
  /** Which worker processes completed this workflow's tasks (their identity is pid@host). */
  const workerPids = (events: HistoryEvents) =>
    new Set(
      events.flatMap((e) =>
        e.workflowTaskCompletedEventAttributes
          ? [Number(e.workflowTaskCompletedEventAttributes.identity?.split('@')[0])]
          : [],
      ),
    );

  it('a worker killed mid-plan loses nothing: the children resume, the parent gets every envelope once, one booking', async () => {
    const first = await worker();
    const { handle } = await startConversationForFaults(env.client, baseEnv.TASK_QUEUE!, { goalId: 'goal_boss' });
    await say(handle, `take ${mon} to ${tue} off for ada@example.com and chase my order`);
    // Both delegates are at work and both wait for the user; the parent shows the approval and the question.
    await waitUntil(
      async () => (await handle.query(delegationsQuery)).map((d) => d.state).join() === 'awaiting_approval,asking',
    );
    await waitUntil(async () =>
      (await history(handle)).some((m) => m.kind === 'agent' && m.text === 'Order status asks: Which order number?'),
    );
    expect((await handle.query(pendingToolCallQuery))?.delegate?.agentName).toBe('PTO assistant');
    const [pto, order] = (await handle.query(delegationsQuery)).map((d) => d.childId);

    // Kill 1, mid-plan: both children started, neither finished; the parent's AskAgent calls have no result yet.
    const startedRuns = childRuns(await events(handle.workflowId));
    expect([...startedRuns.keys()].sort()).toEqual([pto, order].sort());
    expect(childrenCompleted(await events(handle.workflowId))).toEqual([]);
    for (const id of [pto!, order!]) {
      expect((await env.client.workflow.getHandle(id).describe()).status.name).toBe('RUNNING');
      // A delegate recovers from the kill as fast as its parent: it has the parent's workflow task timeout.
      const started = (await events(id))[0]?.workflowExecutionStartedEventAttributes;
      expect(Number(started?.workflowTaskTimeout?.seconds)).toBe(2);
    }
    await first.kill();

    // The approval is answered through the parent, on the next worker; BookPTO acts and its report is held.
    const second = await worker();
    // BookPTO runs as a local activity: the report of the delegate's workflow task that ran it is held.
    const reported = proxy.hold(
      'RespondWorkflowTaskCompleted',
      'request',
      (body) => body.includes('core_local_activity') && body.includes('BookPTO'),
    );
    const approval = await handle.startUpdate(confirmUpdate, {
      args: [{ approve: true }],
      waitForStage: WorkflowUpdateStage.ACCEPTED,
    });
    await reported;
    // Kill 2: the booking is made (on disk) and Temporal does not know it: no BookPTO run recorded in the child.
    expect(employee('ada@example.com').bookings).toHaveLength(1);
    expect(
      (await events(pto!)).some((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity'),
    ).toBe(false);
    expect(childrenCompleted(await events(handle.workflowId))).toEqual([]);
    await second.kill();
    proxy.release();

    // The question is answered through the parent, on a third worker; both delegates finish.
    const third = await worker();
    const done = await say(handle, 'ORD-1001');
    // The envelopes are listed in the order they arrived, which the kills make either.
    expect([
      'Boss: ok ok | Booked; 88 hours left. ORD-1001 is shipped.',
      'Boss: ok ok | ORD-1001 is shipped. Booked; 88 hours left.',
    ]).toContain(done.reply);
    expect(done.pendingToolCall).toBeNull();
    // The approval was taken once: whatever the confirm update answered, it does not ask for it again.
    expect((await approval.result()).pendingToolCall).toBeNull();

    // The parent: two children started and two completed, once each; one AskAgent result per call, both ok.
    const parentEvents = await events(handle.workflowId);
    expect(childRuns(parentEvents)).toEqual(startedRuns);
    expect(childrenCompleted(parentEvents).sort()).toEqual([pto, order].sort());
    const messages = await history(handle);
    const askCalls = messages.flatMap((m) =>
      m.kind === 'agent' ? m.toolCalls.filter((c) => c.tool === 'AskAgent') : [],
    );
    const results = toolOutcomes(messages, 'AskAgent');
    expect(askCalls).toHaveLength(2);
    expect(results.map((r) => r.call.id).sort()).toEqual(askCalls.map((c) => c.id).sort());
    expect(
      results.map((r) =>
        r.outcome.status === 'ok' ? (r.outcome.result as DelegateEnvelope).status : r.outcome.status,
      ),
    ).toEqual(['ok', 'ok']);

    // The children resumed, not restarted: the runs they started as completed, continued by the later workers.
    for (const id of [pto!, order!]) {
      const described = await env.client.workflow.getHandle(id).describe();
      expect({ run: described.runId, status: described.status.name }).toEqual({
        run: startedRuns.get(id),
        status: 'COMPLETED',
      });
    }
    const ptoEvents = await events(pto!);
    // The second worker's one task for the PTO agent (BookPTO ran in it) was never reported: first and third only.
    expect(workerPids(ptoEvents)).toEqual(new Set([first.child.pid, third.child.pid]));
    expect(workerPids(await events(order!))).toEqual(new Set([first.child.pid, third.child.pid]));
    // BookPTO ran again on the third worker (the second's run was never recorded: one marker) and booked once.
    const bookRuns = ptoEvents.filter(
      (e) =>
        e.markerRecordedEventAttributes?.markerName === 'core_local_activity' &&
        Buffer.from(e.markerRecordedEventAttributes.details?.['data']?.payloads?.[0]?.data ?? []).includes('BookPTO'),
    );
    expect(bookRuns).toHaveLength(1);
    expect(employee('ada@example.com')).toMatchObject({
      ptoHoursLeft: 88,
      bookings: [{ startDate: mon, endDate: tue, hours: 16 }],
    });
  }, 90_000);
});
