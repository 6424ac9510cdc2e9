// A webhook-triggered run when its worker process dies, with real processes: a real dev server, the API in this
// process, real worker processes (worker/main.ts, demo data in DATA_DIR) killed with SIGKILL, the scripted model paced
// so its call is still streaming when the kill comes. The next worker retries the call, the run waits for the owner's
// approval (`ask`), the sender's retried delivery starts nothing, and the booking is made once. Killed while the run's
// outcome is being POSTed, the next worker POSTs it again with the same Idempotency-Key.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { unattendedRuns } from '../../client/unattended-runs';
import type { Transcript } from '../../core/conversation-types';
import { openBlobStore, readBlobSettings } from '../../blobs';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import type { Employee } from '../../tools/mock-data';
import { week } from '../../testkit/days';
import { startTemporal } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { ptoScript } from '../fixtures/scripts';
import { sendDelivery, startTriggerApi } from '../../testkit/trigger-api';

const SECRET = 'whsec-faults-0123456789';

describe('a triggered run survives its worker being killed', () => {
  let env: TestWorkflowEnvironment;
  let bus: StreamBus;
  let api: RunningApi;
  let agents: AgentClient;
  let dataDir: string;
  let workerEnv: Record<string, string>;
  let registry: string;
  const running: WorkerProcess[] = [];

  beforeAll(async () => {
    process.env.TRIGGERS_FAULTS_SECRET = SECRET;
    env = await startTemporal();
    dataDir = mkdtempSync(path.join(tmpdir(), 'triggers-faults-'));
    writeFileSync(path.join(dataDir, 'script.json'), JSON.stringify(ptoScript));
    registry = path.join(dataDir, 'triggers.json');
    const prompt = `book ${week(4)} to ${week(4, 1)} for ada@example.com`;
    const booking = { goal: 'goal_hr_pto', prompt, signature: 'github', secret: '${env:TRIGGERS_FAULTS_SECRET}' };
    writeFileSync(registry, JSON.stringify({ triggers: { booking: { ...booking, approvals: 'ask', owner: 'ops' } } }));
    const taskQueue = `triggers-faults-${process.pid}`;
    workerEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
      AGENT_GOAL: 'goal_hr_pto',
      DATA_DIR: dataDir,
      LLM_MODEL: `scripted:${path.join(dataDir, 'script.json')}`,
      VALIDATE_PROMPTS: 'false',
      SHOW_CONFIRM: 'true',
      // "Booking that now." streams a word every 1.5 s: the model call is in flight for about 3 s.
      SCRIPTED_STREAM_DELAY_MS: '1500',
      MCP_ENDPOINTS_FILE: path.join(dataDir, 'no-mcp-endpoints.json'),
    };
    bus = createStreamBus();
    const blobDir = path.join(dataDir, 'blobs');
    agents = new AgentClient(env.client, taskQueue, {
      files: openBlobStore(readBlobSettings({ BLOB_DIR: blobDir }, blobDir)),
    });
    api = await startTriggerApi(agents, bus, { file: registry });
  });
  afterAll(async () => {
    for (const w of running) await w.kill();
    await api?.close();
    await bus?.close();
    await env?.teardown();
  });

  const worker = async () => {
    const w = await startWorkerProcess(workerEnv);
    running.push(w);
    return w;
  };
  /** The one delivery, sent again as a sender retries it; its answer's status and the run it names. */
  const deliver = async () => {
    const raw = JSON.stringify({ action: 'requested', employee: 'ada@example.com' });
    const sent = await sendDelivery(api.url, 'booking', 'github', SECRET, raw, {
      headers: { 'x-github-delivery': 'kill-1' },
    });
    return { status: sent.status, id: sent.body.conversationId as string };
  };
  const bookings = () =>
    (JSON.parse(readFileSync(path.join(dataDir, 'mock-data.json'), 'utf8')).employees as Employee[]).find(
      (e) => e.email === 'ada@example.com',
    )!.bookings;

  it('killed mid model call: the next worker finishes the run once, one booking, the retried delivery starts none', async () => {
    const first = await worker();
    const { status, id } = await deliver();
    expect(status).toBe(202);
    const handle = env.client.workflow.getHandle(id);
    // The planning call has started on the first worker and streams slowly: kill it there.
    const planning = async () =>
      ((await handle.describe()).raw.pendingActivities ?? []).find((a) => a.activityType?.name === 'planTurn');
    await waitUntil(async () => !!(await planning())?.lastStartedTime);
    await first.kill();
    expect(await deliver()).toEqual({ status: 200, id });

    await worker();
    await waitUntil(async () => (await agents.status(id)).state === 'awaiting_approval', 45_000);
    // The planning call ran twice: cut off on the first worker, whole on the next.
    const events = (await handle.fetchHistory()).events!;
    const planned = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'planTurn')!;
    const started = events.find(
      (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === planned.eventId?.toString(),
    );
    expect(started?.activityTaskStartedEventAttributes?.attempt).toBe(2);
    await agents.confirm(id, { approve: true });
    const done = (await handle.result()) as Transcript;
    expect(done.envelope?.summary).toMatch(/^Booked \S+ to \S+; \d+ hours left\.$/);
    expect(bookings()).toHaveLength(1);
    expect((await unattendedRuns(env.client, 'trigger', { name: 'booking' })).map((r) => r.conversationId)).toEqual([
      id,
    ]);
  }, 90_000);

  it('killed while the outcome is being delivered: the next worker delivers it again, with the same key', async () => {
    for (const w of running.splice(0)) await w.kill();
    const keys: string[] = [];
    let arrived!: () => void;
    const firstPost = new Promise<void>((resolve) => (arrived = resolve));
    let unanswered: http.ServerResponse | undefined;
    // The first POST is received and never answered: its worker dies before it hears back.
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        keys.push(String(req.headers['idempotency-key']));
        if (keys.length > 1) return void res.writeHead(204).end();
        unanswered = res;
        arrived();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/outcomes`;
    try {
      const secret = '${env:TRIGGERS_FAULTS_SECRET}';
      const notified = { goal: 'goal_hr_pto', prompt: 'balance for ada@example.com', signature: 'github', secret };
      writeFileSync(registry, JSON.stringify({ triggers: { notified: { ...notified, notify: url } } }));
      const first = await worker();
      const sent = await sendDelivery(api.url, 'notified', 'github', SECRET, '{"n":1}', {
        headers: { 'x-github-delivery': 'notify-1' },
      });
      expect(sent.status).toBe(202);
      await firstPost;
      await first.kill();
      await worker();
      const handle = env.client.workflow.getHandle(sent.body.conversationId as string);
      const done = (await handle.result()) as Transcript;
      expect(done.delivery).toEqual({ url, delivered: true });
      const { runId } = await handle.describe();
      expect(keys).toEqual([`${handle.workflowId}/${runId}`, `${handle.workflowId}/${runId}`]);
    } finally {
      unanswered?.destroy();
      receiver.close();
    }
  }, 90_000);
});
