// Fault injection with real processes: a real dev server, real worker processes (worker/main.ts, as `npm run worker`
// runs it, demo data in DATA_DIR) killed with SIGKILL, and a real MCP server. A gRPC proxy between the worker and
// Temporal holds one kind of call, so each kill lands at an exact point:
//   (a) the tool call was approved, and the worker dies before it can act;
//   (b) the tool acted and the worker reported it, but the report never arrived, and the worker dies;
//   (c) the worker dies while the call waits for the user's approval;
//   (d) a read-only tool ran, and the report carrying its answer never arrived.
// Native tools run as local activities: the report of a tool's run is the report of the workflow task that ran it.
// Each ends with exactly one effect (native tools) or at most one with a "may have run" answer (non-idempotent MCP).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serveMcpOverHttp, type HttpMcpServer } from '../../demo/serve';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import type { Employee } from '../../tools/mock-data';
import { cancelTurnUpdate, confirmSignal } from '../../core/messages';
import {
  decide,
  startConversationForFaults,
  history,
  say,
  toolOutcomes,
  waitForUser,
  waitUntil,
} from '../helpers/conversation';
import { GrpcProxy } from '../../testkit/grpc-proxy';
import { startTemporal } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { week } from '../../testkit/days';

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi.' } },
    {
      user: 'book (\\S+) to (\\S+) for (\\S+@\\S+)',
      reply: { toolCalls: [{ tool: 'BookPTO', args: { email: '{{3}}', startDate: '{{1}}', endDate: '{{2}}' } }] },
    },
    { afterTool: 'BookPTO', outcome: 'ok', reply: { text: 'Booked: {{result.hoursLeft}} hours left.' } },
    {
      user: 'move (\\d+) from (\\w+) to (\\w+) in (\\d+)',
      reply: {
        toolCalls: [
          { tool: 'MoveMoney', args: { accountId: '{{4}}', from: '{{2}}', to: '{{3}}', amount: '{{1:number}}' } },
        ],
      },
    },
    { afterTool: 'MoveMoney', outcome: 'ok', reply: { text: '{{result.confirmationId}}: {{result.summary}}' } },
    { user: 'balance for (\\S+@\\S+)', reply: { toolCalls: [{ tool: 'CurrentPTO', args: { email: '{{1}}' } }] } },
    { afterTool: 'CurrentPTO', outcome: 'ok', reply: { text: '{{result.hoursLeft}} hours left.' } },
    { user: 'pay (\\d+)', reply: { toolCalls: [{ tool: 'ledger__pay', args: { amount: '{{1:number}}' } }] } },
    { afterTool: 'ledger__pay', outcome: 'ok', reply: { text: 'Paid.' } },
    { afterTool: 'ledger__pay', outcome: 'tool_error', reply: { text: 'Payment: {{outcome.error}}' } },
    { outcome: 'tool_error', reply: { text: 'Failed: {{outcome.error}}' } },
  ],
  fallback: { text: 'Say that again?' },
};

/** A payments MCP server with one non-idempotent tool; each call is counted and can be held unanswered. */
function ledgerServer() {
  const calls: { amount: number; key: unknown }[] = [];
  let holdNext = false;
  const create = () => {
    const server = new McpServer({ name: 'ledger', version: '1.0.0' });
    server.registerTool(
      'pay',
      { description: 'Pays an amount (not idempotent).', inputSchema: { amount: z.number() } },
      async ({ amount }, extra) => {
        calls.push({ amount, key: extra._meta?.idempotencyKey });
        if (holdNext) await new Promise(() => undefined); // the answer never comes: the worker dies meanwhile
        return { content: [{ type: 'text' as const, text: JSON.stringify({ paid: amount }) }] };
      },
    );
    return server;
  };
  return { calls, create, holdCalls: () => (holdNext = true) };
}

describe('faults: worker processes killed at the worst moments', () => {
  const mon = week(4);
  const tue = week(4, 1);
  let env: TestWorkflowEnvironment;
  let proxy: GrpcProxy;
  let dataDir: string;
  let baseEnv: Record<string, string>;
  let ledger: ReturnType<typeof ledgerServer>;
  let ledgerHttp: HttpMcpServer;
  const running: WorkerProcess[] = [];
  const taskQueue = `faults-${process.pid}`;

  beforeAll(async () => {
    env = await startTemporal();
    proxy = await GrpcProxy.start(env.address);
    dataDir = mkdtempSync(path.join(tmpdir(), 'faults-'));
    ledger = ledgerServer();
    ledgerHttp = await serveMcpOverHttp(ledger.create, 0);
    writeFileSync(path.join(dataDir, 'script.json'), JSON.stringify(script));
    writeFileSync(
      path.join(dataDir, 'mcp.json'),
      JSON.stringify({ mcpServers: { ledger: { url: ledgerHttp.url, requireApproval: 'never', timeoutMs: 120_000 } } }),
    );
    const goals = path.join(dataDir, 'goals');
    mkdirSync(goals);
    writeFileSync(
      path.join(goals, 'payments.json'),
      JSON.stringify({
        id: 'goal_payments',
        category: 'finance',
        agentName: 'Payments',
        agentFriendlyDescription: 'Pays.',
        description: 'Pay.',
        starterPrompt: 'Greet the user.',
        mcp: { servers: ['ledger'] },
      }),
    );
    baseEnv = {
      TEMPORAL_ADDRESS: proxy.address,
      TASK_QUEUE: taskQueue,
      AGENT_GOAL: 'goal_hr_pto',
      DATA_DIR: dataDir,
      LLM_MODEL: `scripted:${path.join(dataDir, 'script.json')}`,
      VALIDATE_PROMPTS: 'false',
      SHOW_CONFIRM: 'true',
      MCP_ENDPOINTS_FILE: path.join(dataDir, 'mcp.json'),
      GOALS_DIR: goals,
    };
  });
  // A failed test must not leave calls held for the next one.
  afterEach(() => proxy.release());
  afterAll(async () => {
    for (const w of running) await w.kill();
    await proxy?.close();
    await ledgerHttp?.close();
    await env?.teardown();
  });

  async function worker(): Promise<WorkerProcess> {
    const w = await startWorkerProcess(baseEnv);
    running.push(w);
    return w;
  }

  const demoData = () =>
    JSON.parse(readFileSync(path.join(dataDir, 'mock-data.json'), 'utf8')) as Record<string, unknown>;
  const employee = (email: string) => (demoData().employees as Employee[]).find((e) => e.email === email)!;
  const balances = (accountId: string) =>
    (demoData().bankCustomers as { accountId: string; balances: { checking: number; savings: number } }[]).find(
      (c) => c.accountId === accountId,
    )!.balances;

  /** The runs of a native tool its history recorded (local activities' markers). */
  async function recordedRuns(handle: WorkflowHandle, tool: string): Promise<number> {
    const events = (await handle.fetchHistory()).events ?? [];
    return events.filter(
      (e) =>
        e.markerRecordedEventAttributes?.markerName === 'core_local_activity' &&
        Buffer.from(e.markerRecordedEventAttributes.details?.['data']?.payloads?.[0]?.data ?? []).includes(tool),
    ).length;
  }

  /** The report of a workflow task that ran `tool` (its local activity's marker is in it). */
  const reportOfRun = (tool: string) => (body: Buffer) => body.includes('core_local_activity') && body.includes(tool);

  async function proposeBooking(email: string, start: string, end: string) {
    const { handle } = await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_hr_pto' });
    const proposal = await say(handle, `book ${start} to ${end} for ${email}`);
    expect(proposal.pendingToolCall?.call.tool).toBe('BookPTO');
    return handle;
  }

  /**
   * Approves the pending call and kills the worker after the tool acted, while its completion report is held
   * (`acted` checks the effect is on disk, which Temporal does not know of); then starts the next worker.
   */
  async function approveActAndDie(
    handle: WorkflowHandle,
    tool: string,
    dying: WorkerProcess,
    acted: () => void,
  ): Promise<void> {
    const reported = proxy.hold('RespondWorkflowTaskCompleted', 'request', reportOfRun(tool));
    await handle.signal(confirmSignal, { approve: true });
    await reported;
    acted();
    await dying.kill();
    proxy.release();
    await worker();
  }

  it('(b) BookPTO acted, its completion never reached Temporal, the worker died: booked once', async () => {
    const first = await worker();
    const handle = await proposeBooking('ada@example.com', mon, tue);
    await approveActAndDie(handle, 'BookPTO', first, () =>
      expect(employee('ada@example.com').bookings).toHaveLength(1),
    );
    const reply = await waitForUser(handle, 60_000);
    expect(reply?.reply).toBe('Booked: 88 hours left.');
    // The next worker ran it again (the lost report's run was never recorded) and the effect ledger answered.
    expect(await recordedRuns(handle, 'BookPTO')).toBe(1);
    expect(employee('ada@example.com')).toMatchObject({
      ptoHoursLeft: 88,
      bookings: [{ startDate: mon, endDate: tue, hours: 16 }],
    });
  });

  it('(a) BookPTO approved, the worker dies before it can act: booked once, by the next worker', async () => {
    for (const w of running.splice(0)) await w.kill();
    const first = await worker();
    const handle = await proposeBooking('grace@example.com', week(5), week(5));
    // Temporal takes the approval, but the workflow task carrying it never reaches the worker.
    const handed = proxy.hold('PollWorkflowTaskQueue', 'response');
    await handle.signal(confirmSignal, { approve: true });
    await handed;
    expect(employee('grace@example.com').bookings).toHaveLength(0);
    await first.kill();
    proxy.release();

    await worker();
    expect((await waitForUser(handle, 60_000))?.reply).toBe('Booked: 28 hours left.');
    expect(await recordedRuns(handle, 'BookPTO')).toBe(1);
    expect(employee('grace@example.com').bookings).toHaveLength(1);
  });

  it('(c) the worker died while BookPTO waited for approval: approved later, booked once', async () => {
    for (const w of running.splice(0)) await w.kill();
    const first = await worker();
    const handle = await proposeBooking('ada@example.com', week(6), week(6));
    await first.kill();
    await worker();
    const reply = await decide(handle, { approve: true });
    expect(reply.reply).toBe('Booked: 80 hours left.');
    expect(employee('ada@example.com').bookings).toHaveLength(2);
  });

  it('(d) CurrentPTO ran as a local activity, the task carrying its answer was lost, the worker died: read again, one answer', async () => {
    for (const w of running.splice(0)) await w.kill();
    const first = await worker();
    const { handle } = await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_hr_pto' });
    await waitForUser(handle);
    // The workflow task that ran CurrentPTO reports its answer with the next model call: that report never arrives.
    const reported = proxy.hold('RespondWorkflowTaskCompleted', 'request', reportOfRun('CurrentPTO'));
    const reply = say(handle, 'balance for ada@example.com');
    await reported;
    // Held at the right point: the model had asked for the tool, and no local activity's answer was recorded yet.
    const sofar = (await handle.fetchHistory()).events ?? [];
    const accepted = sofar.findIndex((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
    expect(sofar.slice(accepted).filter((e) => e.activityTaskCompletedEventAttributes)).toHaveLength(1);
    expect(sofar.some((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')).toBe(false);
    await first.kill();
    proxy.release();
    await worker();
    // Ada's hours as the demo data has them (the seed's 104 when no test before this one booked any).
    const hours = existsSync(path.join(dataDir, 'mock-data.json')) ? employee('ada@example.com').ptoHoursLeft : 104;
    expect((await reply).reply).toBe(`${hours} hours left.`);
    expect(toolOutcomes(await history(handle), 'CurrentPTO')).toHaveLength(1);
    const markers = ((await handle.fetchHistory()).events ?? []).filter(
      (e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity',
    );
    expect(markers).toHaveLength(1); // the lost task's marker never made it; the next worker's did
    expect(await recordedRuns(handle, 'CurrentPTO')).toBe(1);
  });

  it('(b) MoveMoney moved the money, the report was lost, the worker died: moved once', async () => {
    for (const w of running.splice(0)) await w.kill();
    const first = await worker();
    const { handle } = await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_fin_move_money' });
    expect((await say(handle, 'move 100 from savings to checking in 11235')).pendingToolCall?.call.tool).toBe(
      'MoveMoney',
    );
    await approveActAndDie(handle, 'MoveMoney', first, () =>
      expect(balances('11235')).toEqual({ checking: 975.4, savings: 3100.15 }),
    );
    expect((await waitForUser(handle, 60_000))?.reply).toMatch(/^TRF-0001: Moved \$100\.00 from savings/);
    expect(await recordedRuns(handle, 'MoveMoney')).toBe(1);
    expect(balances('11235')).toEqual({ checking: 975.4, savings: 3100.15 });
    expect(demoData().transfers).toHaveLength(1);
  });

  it('a non-idempotent MCP call in flight when the worker died is not re-sent: at most once, and the user is told', async () => {
    for (const w of running.splice(0)) await w.kill();
    const first = await worker();
    const { handle } = await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_payments' });
    ledger.holdCalls();
    const pending = say(handle, 'pay 5').catch((err: Error) => err);
    await waitUntil(async () => ledger.calls.length === 1);
    await first.kill();

    await worker();
    const reply = await waitForUser(handle, 60_000);
    expect(reply?.reply).toMatch(
      /^Payment: The call to ledger\/pay was sent, then lost .*may or may not have run, so it was not retried/,
    );
    expect(ledger.calls).toEqual([{ amount: 5, key: expect.stringMatching(/^mcp-/) }]);
    expect(toolOutcomes(await history(handle), 'ledger__pay')).toHaveLength(1);
    await pending;
  });

  it('the user cancels a non-idempotent MCP call and the worker dies before the cancel reaches it: not re-sent, the user is told', async () => {
    for (const w of running.splice(0)) await w.kill();
    const first = await worker();
    const { handle } = await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_payments' });
    ledger.holdCalls();
    const before = ledger.calls.length;
    const pending = say(handle, 'pay 7').catch((err: Error) => err);
    await waitUntil(async () => ledger.calls.length === before + 1);
    // Heartbeats are how the cancel would reach the call: hold them, so the worker never hears of it, then kill it.
    const heartbeat = proxy.hold('RecordActivityTaskHeartbeat', 'request');
    await heartbeat;
    const stopped = handle.executeUpdate(cancelTurnUpdate);
    await waitUntil(async () =>
      ((await handle.fetchHistory()).events ?? []).some((e) => e.activityTaskCancelRequestedEventAttributes),
    );
    await first.kill();
    proxy.release();

    await worker();
    expect((await stopped).reply).toBe('Stopped, as you asked. What would you like to do next?');
    const [outcome] = toolOutcomes(await history(handle), 'ledger__pay');
    expect(outcome?.outcome).toMatchObject({
      status: 'tool_error',
      error: expect.stringMatching(/may or may not have (run|acted)/),
    });
    expect(ledger.calls.slice(before)).toEqual([{ amount: 7, key: expect.stringMatching(/^mcp-/) }]);
    await pending;
  });
});
