// Remote A2A agents as delegates, against a real dev server, real worker processes and a remote agent built with
// @a2a-js/sdk alone (testkit/a2a-remote-agent.ts, a process of its own): added to the registry's `a2aAgents`, it is
// offered to the orchestrator on the next turn with no restart; its task's answer comes back as AskAgent's result;
// its question reaches our user and the answer goes back on the same task; a worker killed while the remote task runs
// leaves one task on the remote side, followed to its end by the next worker; a cancelled turn cancels the remote task.
import { writeFileSync } from 'node:fs';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../../client/agent-client';
import { readRun } from '../../views/run-view/run-reader';
import type { StartedProcess } from '../../testkit/process';
import { a2aScript, startRemoteAgent } from '../fixtures/a2a';
import { startTemporal } from '../../testkit/temporal';
import { scriptedWorkerSettings, startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { waitUntil } from '../../testkit/wait-until';

interface Stats {
  messages: number;
  tasks: number;
  cancels: number;
  contexts: number;
}

describe('remote A2A agents as delegates', () => {
  let env: TestWorkflowEnvironment;
  let remote: StartedProcess;
  let remoteUrl: string;
  let worker: WorkerProcess;
  let agents: AgentClient;
  let settings: Record<string, string>;
  let registry: string;
  const taskQueue = `a2a-delegates-${process.pid}`;

  const stats = async (): Promise<Stats> => (await (await fetch(`${remoteUrl}/stats`)).json()) as Stats;
  const register = (agents: object) => writeFileSync(registry, JSON.stringify({ mcpServers: {}, a2aAgents: agents }));

  beforeAll(async () => {
    env = await startTemporal();
    remote = await startRemoteAgent();
    remoteUrl = remote.ready[1]!;
    const made = scriptedWorkerSettings('a2a-delegates', {
      address: env.address,
      taskQueue,
      script: a2aScript,
      mcpServers: {},
    });
    registry = made.env.MCP_ENDPOINTS_FILE!;
    settings = { ...made.env, AGENT_GOAL: 'goal_orchestrator', DATA_DIR: made.dir };
    worker = await startWorkerProcess(settings);
    agents = await AgentClient.connect(taskQueue, { TEMPORAL_ADDRESS: env.address });
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await remote?.end('SIGTERM');
    await agents?.close();
    await env?.teardown();
  });

  it('a remote agent added to the registry is asked on the next turn, with no restart', async () => {
    const { id } = await agents.start('goal_orchestrator');
    // Not in the registry yet: AskAgent does not offer it.
    const refused = await agents.say(id, 'remote hello');
    expect(refused.reply).toMatch(/^Could not ask/);
    expect((await stats()).messages).toBe(0);
    register({ helper: { card: remoteUrl } });
    const r = await agents.say(id, 'remote hello');
    expect(r.reply).toBe('Remote said (ok): echo: hello');
    // The run view draws the remote task as a branch of its own: the agent, its task, its state and times.
    const run = await readRun(agents.client, id);
    const remoteStep = run.root.turns.flatMap((t) => t.steps).find((s) => s.branch?.goalId === 'a2a:helper');
    expect(remoteStep).toMatchObject({ kind: 'delegate', status: 'done', label: 'helper (A2A)' });
    expect(remoteStep!.detail).toMatch(/^hello · task \S+: completed$/);
    expect(remoteStep!.branch).toMatchObject({ status: 'done', turns: [{ prompt: 'hello', status: 'done' }] });
    expect(remoteStep!.branch!.endedAt).toBeDefined();
    const listed = await agents.agents();
    expect(listed.remote?.map((a) => a.goalId)).toEqual(['a2a:helper']);
    expect(listed.remote?.[0]?.description).toMatch(/Skills: Echo/);
    await agents.end(id);
  }, 60_000);

  it('a remote agent is an agent to talk to: listed, started by id, its context going on from turn to turn', async () => {
    expect((await agents.agents()).agents.map((a) => a.goalId)).toContain('a2a:helper');
    const before = await stats();
    const { id, greeting } = await agents.start('a2a:helper');
    expect(greeting?.reply).toBe('Helper here.');
    expect((await agents.say(id, 'first')).reply).toBe('helper: echo: first');
    expect((await agents.say(id, 'second')).reply).toBe('helper: echo: second');
    const after = await stats();
    expect(after.tasks - before.tasks).toBe(2);
    expect(after.contexts - before.contexts).toBe(1);
    await agents.end(id);
  }, 60_000);

  it("the remote agent's question reaches our user; the answer goes back on the same task", async () => {
    const before = await stats();
    const { id } = await agents.start('goal_orchestrator');
    const asked = await agents.say(id, 'remote ask which colour?');
    expect(asked.question).toMatchObject({ tool: 'a2a:helper', message: 'which colour?' });
    const reply = await agents.answer(id, { answer: { action: 'accept', content: { answer: 'blue' } } });
    expect(reply.reply).toBe('Remote said (ok): thanks: blue');
    const after = await stats();
    expect(after.tasks - before.tasks).toBe(1);
    expect(after.messages - before.messages).toBe(2);
    await agents.end(id);
  }, 60_000);

  it('a worker killed while the remote task runs: the next worker follows the same task, sent once', async () => {
    const before = await stats();
    const { id } = await agents.start('goal_orchestrator');
    const reply = agents.say(id, 'remote slow 6000 the report');
    // The task id is recorded (the activity's heartbeat details) before the worker dies.
    const handle = agents.client.workflow.getHandle(id);
    await waitUntil(async () =>
      ((await handle.describe()).raw.pendingActivities ?? []).some((a) => a.heartbeatDetails?.payloads?.length),
    );
    expect((await stats()).tasks - before.tasks).toBe(1);
    await worker.kill();
    worker = await startWorkerProcess(settings);
    expect((await reply).reply).toBe('Remote said (ok): done: the report');
    const after = await stats();
    expect(after.tasks - before.tasks).toBe(1);
    expect(after.messages - before.messages).toBe(1);
    await agents.end(id);
  }, 90_000);

  it('a worker stopped gracefully (a deploy) while the remote task runs leaves it running for the next worker', async () => {
    const before = await stats();
    const { id } = await agents.start('goal_orchestrator');
    const reply = agents.say(id, 'remote slow 4000 the rollout');
    await waitUntil(async () => (await stats()).tasks - before.tasks === 1);
    await worker.stop();
    worker = await startWorkerProcess(settings);
    expect((await reply).reply).toBe('Remote said (ok): done: the rollout');
    const after = await stats();
    expect(after.cancels - before.cancels).toBe(0);
    expect(after.tasks - before.tasks).toBe(1);
    await agents.end(id);
  }, 90_000);

  it('a cancelled turn cancels the remote task', async () => {
    const before = await stats();
    const { id } = await agents.start('goal_orchestrator');
    void agents.sayLater(id, 'remote slow 20000 never');
    await waitUntil(async () => (await stats()).tasks - before.tasks === 1);
    await agents.cancel(id);
    await waitUntil(async () => (await stats()).cancels - before.cancels === 1);
    await agents.end(id);
  }, 60_000);
});
