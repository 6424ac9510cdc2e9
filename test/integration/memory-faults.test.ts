// A Remember whose worker process dies after the write and before Temporal hears of it, with real processes: a real
// dev server behind a gRPC proxy that holds the activity's completion, worker processes (worker/main.ts) killed with
// SIGKILL. With the store PGlite in DATA_DIR, the next worker runs the write again (its attempt 2), finds the memory
// its key made, and the owner has one memory, not two. With two workers sharing one PostgreSQL server (DATABASE_URL)
// and opening its fresh database at once, conversations' writes spread over both, and the one whose worker dies is
// written again by the other: every fact once. A conversation's end proposing memories (memory.extract) whose worker
// dies after the proposals are written: the next worker's attempt finds them, and the owner has each proposal once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../../client/agent-client';
import type { Memory } from '../../core/memory';
import { GrpcProxy } from '../../testkit/grpc-proxy';
import { startTemporal } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { startPostgres } from '../../testkit/postgres-server';
import { extractGoalsDir, extractScript, NOTES_GOAL } from '../fixtures/memory-extract';
import type { ScriptInput } from '../../activities/llm/scripted-model';

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hello.' } },
    {
      user: 'remember that I prefer (\\w+) off',
      reply: { toolCalls: [{ tool: 'Remember', args: { fact: 'prefers {{1}} off' } }] },
    },
    { afterTool: 'Remember', outcome: 'ok', reply: { text: 'Noted: {{result.kept}}.' } },
  ],
};

describe('memory faults: the worker killed between the write and its report', () => {
  let env: TestWorkflowEnvironment;
  let proxy: GrpcProxy;
  let baseEnv: Record<string, string>;
  let agents: AgentClient;
  const running: WorkerProcess[] = [];

  beforeAll(async () => {
    env = await startTemporal();
    proxy = await GrpcProxy.start(env.address);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'memory-faults-'));
    writeFileSync(path.join(dataDir, 'script.json'), JSON.stringify(script));
    baseEnv = {
      TEMPORAL_ADDRESS: proxy.address,
      TASK_QUEUE: `memory-faults-${process.pid}`,
      AGENT_GOAL: 'goal_hr_pto',
      DATA_DIR: dataDir,
      LLM_MODEL: `scripted:${path.join(dataDir, 'script.json')}`,
      VALIDATE_PROMPTS: 'false',
      SHOW_CONFIRM: 'true',
      MCP_ENDPOINTS_FILE: path.join(dataDir, 'no-mcp-endpoints.json'),
    };
    agents = new AgentClient(env.client, baseEnv.TASK_QUEUE!);
  });
  afterEach(() => proxy.release());
  afterAll(async () => {
    for (const w of running) await w.kill();
    await proxy?.close();
    await env?.teardown();
  });

  const worker = async (more: Record<string, string> = {}) => {
    const w = await startWorkerProcess({ ...baseEnv, ...more });
    running.push(w);
    return w;
  };

  it('killed after the write: the next worker writes again and finds it, one memory', async () => {
    const first = await worker();
    const { id } = await agents.start('goal_hr_pto', 'memory-fault-1', 'ada');
    expect((await agents.say(id, 'remember that I prefer Fridays off')).pendingToolCall?.tool).toBe('Remember');
    // The write's report is held: the memory is kept on disk and Temporal does not know it.
    const reported = proxy.hold('RespondActivityTaskCompleted', 'request', (body) => body.includes('rememberFact'));
    await agents.confirmLater(id, { approve: true });
    await reported;
    await first.kill();
    proxy.release();

    await worker();
    await waitUntil(async () => (await agents.status(id)).lastReply?.reply === 'Noted: prefers Fridays off.', 60_000);
    const events = (await env.client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const write = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'rememberFact')!;
    const started = events.find(
      (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === write.eventId?.toString(),
    );
    expect(started?.activityTaskStartedEventAttributes?.attempt).toBe(2);
    const { memories } = (await agents.memory({ owner: 'ada', op: 'list' })) as { memories: Memory[] };
    expect(memories.map((m) => m.text)).toEqual(['prefers Fridays off']);
  }, 120_000);

  it("two workers on one PostgreSQL: every write once, the dying worker's written again by the other", async () => {
    const postgres = await startPostgres();
    try {
      // The database is not made yet: the two workers make it (one of them) and migrate it (once) as they start.
      const shared = {
        DATABASE_URL: postgres.url.replace(/postgres$/, 'memories'),
        TASK_QUEUE: `${baseEnv.TASK_QUEUE}-pg`,
      };
      const pair = await Promise.all([worker(shared), worker(shared)]);
      const two = new AgentClient(env.client, shared.TASK_QUEUE);
      const days = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays'];
      const ids = await Promise.all(
        days.map(async (_, i) => (await two.start('goal_hr_pto', `mem-pg-${i}`, 'ada')).id),
      );
      await Promise.all(ids.map((id, i) => two.say(id, `remember that I prefer ${days[i]} off`)));
      // The first write's report is held; the worker that sent it dies with it (its pid is the report's identity).
      let held: string | undefined;
      const reported = proxy.hold('RespondActivityTaskCompleted', 'request', (body) => {
        if (held || !body.includes('rememberFact')) return false;
        held = body.toString('latin1');
        return true;
      });
      await Promise.all(ids.map((id) => two.confirmLater(id, { approve: true })));
      await reported;
      const dying = pair.find((w) => held!.includes(`${w.child.pid}@`))!;
      expect(dying).toBeDefined();
      await dying.kill();
      proxy.release();

      await waitUntil(async () => {
        const replies = await Promise.all(ids.map(async (id) => (await two.status(id)).lastReply?.reply));
        return replies.every((r, i) => r === `Noted: prefers ${days[i]} off.`);
      }, 60_000);
      const { memories } = (await two.memory({ owner: 'ada', op: 'list', limit: 100 })) as { memories: Memory[] };
      expect(memories.map((m) => m.text).sort()).toEqual(days.map((d) => `prefers ${d} off`).sort());
      // The write whose report was lost (its task token names its conversation) ran again, attempt 2, on the other
      // worker, and found what it had kept.
      const lost = /mem-pg-\d/.exec(held!)![0];
      const events = (await env.client.workflow.getHandle(lost).fetchHistory()).events ?? [];
      const write = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'rememberFact')!;
      const started = events.find(
        (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === write.eventId?.toString(),
      )?.activityTaskStartedEventAttributes;
      const survivor = pair.find((w) => w !== dying)!;
      expect(started?.attempt).toBe(2);
      expect(started?.identity).toMatch(new RegExp(`^${survivor.child.pid}@`));
    } finally {
      await postgres.stop();
    }
  }, 120_000);

  it('killed after proposing at the end: the next worker finds the proposals, each once', async () => {
    const scriptFile = path.join(baseEnv.DATA_DIR!, 'extract-script.json');
    writeFileSync(scriptFile, JSON.stringify(extractScript));
    const extracting = {
      TASK_QUEUE: `${baseEnv.TASK_QUEUE}-extract`,
      GOALS_DIR: extractGoalsDir(),
      LLM_MODEL: `scripted:${scriptFile}`,
    };
    const first = await worker(extracting);
    const notes = new AgentClient(env.client, extracting.TASK_QUEUE);
    // Not ada: the first test kept her Fridays, and a fact the owner has already is not proposed.
    const { id } = await notes.start(NOTES_GOAL.id, 'memory-fault-extract', 'flo');
    await notes.say(id, 'I prefer Fridays off');
    // The proposals are written (the activity's own transaction) and its report to Temporal is held.
    const reported = proxy.hold('RespondActivityTaskCompleted', 'request', (body) => body.includes('proposeMemories'));
    const ended = notes.end(id).catch((err: unknown) => err);
    await reported;
    await first.kill();
    proxy.release();

    await worker(extracting);
    await env.client.workflow.getHandle(id).result();
    await ended;
    const events = (await env.client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const propose = events.find(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'proposeMemories',
    )!;
    const started = events.find(
      (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === propose.eventId?.toString(),
    );
    expect(started?.activityTaskStartedEventAttributes?.attempt).toBe(2);
    const { memories } = (await notes.memory({ owner: 'flo', op: 'list' })) as { memories: Memory[] };
    expect(memories.filter((m) => m.proposed).map((m) => m.text)).toEqual(['prefers Fridays off']);
  }, 120_000);
});
