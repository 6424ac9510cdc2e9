// A message sent to interrupt a turn whose worker process dies while taking it in, with real processes: a real dev
// server behind a gRPC proxy, worker processes (worker/main.ts) killed with SIGKILL. The workflow task that accepts the
// interrupt (and cancels the model call streaming the first answer) is held at the proxy and its worker killed; the
// next worker takes the message in again: neither message is lost or doubled, and one reply answers both.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../../client/agent-client';
import { GrpcProxy } from '../../testkit/grpc-proxy';
import { startTemporal } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { CARRY_OVER_ANSWER, LONG_ANSWER, steeringScript } from '../fixtures/steering';

describe('steering faults: the worker killed while a message interrupts the turn', () => {
  let env: TestWorkflowEnvironment;
  let proxy: GrpcProxy;
  let baseEnv: Record<string, string>;
  let agents: AgentClient;
  const running: WorkerProcess[] = [];

  beforeAll(async () => {
    env = await startTemporal();
    proxy = await GrpcProxy.start(env.address);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'steering-faults-'));
    writeFileSync(path.join(dataDir, 'script.json'), JSON.stringify(steeringScript));
    baseEnv = {
      TEMPORAL_ADDRESS: proxy.address,
      TASK_QUEUE: `steering-faults-${process.pid}`,
      AGENT_GOAL: 'goal_hr_pto',
      DATA_DIR: dataDir,
      LLM_MODEL: `scripted:${path.join(dataDir, 'script.json')}`,
      // Slow enough that the first answer is still streaming when the second message comes.
      SCRIPTED_STREAM_DELAY_MS: '300',
      // Prompts are checked, as by default: the first answer's model call checks and plans at once (vet_and_plan).
      VALIDATE_PROMPTS: 'true',
      MCP_ENDPOINTS_FILE: path.join(dataDir, 'no-mcp-endpoints.json'),
    };
    agents = new AgentClient(env.client, baseEnv.TASK_QUEUE!);
  });
  afterAll(async () => {
    proxy?.release();
    for (const w of running) await w.kill();
    await proxy?.close();
    await env?.teardown();
  });

  const worker = async () => {
    const w = await startWorkerProcess(baseEnv);
    running.push(w);
    return w;
  };

  it('loses neither message: the next worker takes the interrupt in, and one plan answers both', async () => {
    const first = await worker();
    const { id } = await agents.start('goal_hr_pto', 'steering-fault-1', 'ada');
    const handle = env.client.workflow.getHandle(id);
    const events = async () => (await handle.fetchHistory()).events ?? [];
    const plans = async () =>
      (await events()).filter((e) =>
        ['planTurn', 'vetAndPlan'].includes(e.activityTaskScheduledEventAttributes?.activityType?.name ?? ''),
      );
    const answered = agents.say(id, 'explain the policy');
    // The first answer's plan is running: it streams for about six seconds.
    await waitUntil(async () => (await plans()).length === 2 && (await agents.status(id)).state === 'working');

    // The workflow task that takes the interrupt in names its update: it is held, and its worker dies with it.
    const UPDATE = 'steer-fault-1';
    const taken = proxy.hold('RespondWorkflowTaskCompleted', 'request', (body) => body.includes(UPDATE));
    const interrupted = agents.say(id, { text: 'only the carry-over part', whileBusy: 'interrupt' }, UPDATE);
    await taken;
    await first.kill();
    proxy.release();
    expect((await events()).some((e) => e.activityTaskCancelRequestedEventAttributes)).toBe(false);

    await worker();
    const reply = await interrupted;
    expect(reply.reply).toBe(CARRY_OVER_ANSWER);
    expect((await answered).reply).toBe(CARRY_OVER_ANSWER);
    // The first answer's model call was cancelled by the second worker, and one more plan read both messages.
    expect((await events()).filter((e) => e.activityTaskCancelRequestedEventAttributes)).toHaveLength(1);
    expect(await plans()).toHaveLength(3);
    const messages = (await agents.feed(id, 0)).messages.map((m) => m.message);
    const said = (kind: 'user' | 'agent') => messages.flatMap((m) => (m.kind === kind ? [m.text] : []));
    expect(said('user').slice(1)).toEqual(['explain the policy', 'only the carry-over part']);
    expect(said('agent').slice(1)).toEqual([CARRY_OVER_ANSWER]);
    expect(said('agent')).not.toContain(LONG_ANSWER);
  }, 120_000);
});
