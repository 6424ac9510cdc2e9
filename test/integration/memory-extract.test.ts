// Memories proposed at a conversation's end, against a real dev server and worker (the scripted model, PGlite in the
// worker's folder): a goal with `memory: { extract: true }` runs proposeMemories once its conversation ends (ended by
// the user, or by the agent completing it); the proposal is its owner's alone, recalled by no turn until the owner
// keeps it (the worker, the API — another owner's key gets 404 — and the CLI, whose list marks proposals), then
// recalled. A goal without extract runs no extraction (its history has no such activity). The activity retried: unit
// propose-memories.test; the store's keys and limits: unit memory-proposals.test.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { AgentClient } from '../../client/agent-client';
import { ApiKeys } from '../../api/auth';
import { startApi } from '../../api/server';
import { createStreamBus } from '../../stream';
import type { Memory } from '../../core/memory';
import type { Transcript } from '../../core/conversation-types';
import { recording } from '../../testkit/recording-model';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { runCli } from '../helpers/cli';
import { extractGoalsDir, extractScript, NOTES_GOAL as NOTES } from '../fixtures/memory-extract';

describe('memories proposed at a conversation’s end', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let agents: AgentClient;
  let cliEnv: NodeJS.ProcessEnv;
  const model = recording(extractScript);
  let seq = 0;

  beforeAll(async () => {
    env = await startTemporal();
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', GOALS_DIR: extractGoalsDir() });
    worker = await startWorker(env, { model, settings });
    agents = new AgentClient(env.client, settings.taskQueue);
    cliEnv = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: settings.taskQueue };
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  const open = async (owner: string, goal = NOTES.id) =>
    (await agents.start(goal, `extract-${owner}-${++seq}`, owner)).id;
  const memories = async (owner: string | null) =>
    ((await agents.memory({ owner, op: 'list' })) as { memories: Memory[] }).memories;
  const lastSystem = () =>
    (model.model.prompts.at(-1) as LanguageModelV3Prompt)
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
  /** The activities a conversation scheduled, by type. */
  const scheduled = async (id: string) =>
    (await env.client.workflow.getHandle(id).fetchHistory()).events!.flatMap(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
    );

  it('proposes for its owner only when the user ends it; recalled by no turn until kept, then recalled', async () => {
    const first = await open('ada');
    await agents.say(first, 'I prefer Fridays off');
    const asked = model.model.prompts.length;
    await agents.end(first);
    expect((await scheduled(first)).filter((t) => t === 'proposeMemories')).toHaveLength(1);
    // One model call, reading the conversation's words; what it cost is the conversation's.
    expect(model.model.prompts).toHaveLength(asked + 1);
    const request = JSON.stringify(model.model.prompts.at(-1));
    expect(request).toContain('User: I prefer Fridays off');
    const transcript = (await env.client.workflow.getHandle(first).result()) as Transcript;
    // (The scripted model counts a token for every 4 characters of its request; every request so far was this one's.)
    const tokens = model.model.prompts.reduce((sum, p) => sum + Math.ceil(JSON.stringify(p).length / 4), 0);
    expect(transcript.usage.inputTokens).toBe(tokens);

    const [proposal] = await memories('ada');
    expect(proposal).toMatchObject({
      owner: 'ada',
      goalId: null,
      text: 'prefers Fridays off',
      proposed: true,
      source: { kind: 'conversation', conversationId: first, callId: 'extract/0' },
    });
    expect(await memories('bob')).toEqual([]);
    await expect(agents.memory({ owner: 'bob', op: 'keep', id: proposal!.id })).rejects.toThrow(
      `No memory ${proposal!.id}.`,
    );

    // Not recalled while proposed.
    const next = await open('ada', 'goal_order_status');
    await agents.say(next, 'what do you know about me?');
    expect(lastSystem()).not.toContain('Fridays');
    const kept = (await agents.memory({ owner: 'ada', op: 'keep', id: proposal!.id })) as { memory: Memory };
    expect(kept.memory).toMatchObject({ id: proposal!.id, text: 'prefers Fridays off' });
    expect(kept.memory.proposed).toBeUndefined();
    await agents.say(next, 'what do you know about me now?');
    expect(lastSystem()).toContain(`- [${proposal!.id}] (`);
    expect(lastSystem()).toContain('"prefers Fridays off"');
  }, 60_000);

  it('ended by the agent: kept through the API (owner-scoped) and the CLI, whose list marks proposals', async () => {
    const id = await open('cy');
    await agents.say(id, 'my desk is 42');
    await agents.say(id, 'that is all');
    expect((await env.client.workflow.getHandle(id).result()).endedBy).toBe('goal_complete');
    const proposals = await memories('cy');
    expect(proposals.map((m) => [m.text, m.proposed]).sort()).toEqual([
      ['likes a quiet floor', true],
      ['sits at desk 42', true],
    ]);
    const desk = proposals.find((m) => m.text === 'sits at desk 42')!;
    const quiet = proposals.find((m) => m.text === 'likes a quiet floor')!;

    const [CY, DAN] = ['cy-key-0123456789abcdefgh', 'dan-key-0123456789abcdefg'];
    const bus = createStreamBus();
    const api = await startApi({
      agents,
      bus,
      defaultGoal: NOTES.id,
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: new ApiKeys([`cy=${CY}`, `dan=${DAN}`], []),
        bodyLimitBytes: 64 * 1024,
        corsOrigins: [],
      },
    });
    const keep = async (key: string, memoryId: string) => {
      const res = await fetch(`${api.url}/api/memories/${memoryId}/keep`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      return { status: res.status, body: (await res.json()) as { memory?: Memory } };
    };
    try {
      expect((await keep(DAN, desk.id)).status).toBe(404);
      const kept = await keep(CY, desk.id);
      expect(kept).toMatchObject({ status: 200, body: { memory: { id: desk.id, text: 'sits at desk 42' } } });
      expect(kept.body.memory!.proposed).toBeUndefined();
    } finally {
      await api.close();
      await bus.close();
    }

    const cli = (...args: string[]) => runCli(['memory', ...args, '--owner', 'cy'], cliEnv);
    const listed = (await cli('list')).out.split('\n');
    expect(listed.find((l) => l.startsWith(quiet.id))).toContain('"likes a quiet floor" (proposed: keep or delete it)');
    expect(listed.find((l) => l.startsWith(desk.id))).not.toContain('proposed');
    const keptByCli = await cli('keep', quiet.id);
    expect(keptByCli.err).toBe('');
    expect(keptByCli.out).toMatch(new RegExp(`^${quiet.id} \\[cy\\] "likes a quiet floor" — `));
    expect((await memories('cy')).filter((m) => m.proposed)).toEqual([]);
  }, 60_000);

  it('a goal without extract runs no extraction', async () => {
    const id = await open('eve', 'goal_hr_pto');
    await agents.say(id, 'I prefer Mondays off');
    await agents.end(id);
    expect(await scheduled(id)).not.toContain('proposeMemories');
    expect(await memories('eve')).toEqual([]);
  }, 60_000);
});
