// Conversations can be found: search attributes (goal, state, owner) and a memo title kept by the workflow,
// `agent list` filtering on them, ids reusable once a conversation
// ended, and --json answering in JSON even for errors. A real dev server and worker; the CLI in-process.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ConversationSummary } from '../../client/conversation-list';
import { ptoScript } from '../fixtures/scripts';
import { runCli } from '../helpers/cli';
import { waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../helpers/temporal';

describe('finding conversations', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let cliEnv: NodeJS.ProcessEnv;
  const agent = (...args: string[]) => runCli(args, cliEnv);
  const list = async (...filters: string[]) => JSON.parse((await agent('list', ...filters, '--json')).out) as ConversationSummary[];

  beforeAll(async () => {
    env = await startTemporal();
    const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
    worker = await startWorker(env, { script: ptoScript, settings });
    cliEnv = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: settings.taskQueue, AGENT_GOAL: 'goal_hr_pto', PATH: process.env.PATH };
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  it('lists conversations by goal, state and owner, titled by their first prompt', async () => {
    const owner = `alice-${Date.now()}`;
    expect((await agent('start', '--id', `${owner}-1`, '--owner', owner, '--json')).code).toBe(0);
    await agent('say', `${owner}-1`, 'book 2026-12-21 to 2026-12-22 for ada@example.com');
    expect((await agent('start', '--id', `${owner}-2`, '--owner', owner)).code).toBe(0);
    await agent('say', `${owner}-2`, 'What is my balance for ada@example.com?');
    await agent('end', `${owner}-2`);

    await waitUntil(async () => (await list('--owner', owner)).length === 2 && (await list('--owner', owner, '--state', 'ended')).length === 1);
    const [awaiting] = await list('--owner', owner, '--state', 'awaiting_approval');
    expect(awaiting).toMatchObject({ id: `${owner}-1`, goal: 'goal_hr_pto', state: 'awaiting_approval', owner, title: 'book 2026-12-21 to 2026-12-22 for ada@example.com' });
    expect((await list('--owner', owner, '--state', 'ended')).map((c) => c.id)).toEqual([`${owner}-2`]);
    expect(await list('--owner', owner, '--goal', 'goal_choose_agent')).toEqual([]);
    const human = await agent('list', '--owner', owner);
    expect(human.out).toMatch(new RegExp(`^${owner}-1  awaiting approval  goal_hr_pto  .*"book 2026-12-21`, 'm'));

    // Bad filters are refused before any query is sent.
    expect(JSON.parse((await agent('list', '--state', 'sleeping', '--json')).out)).toEqual({ error: expect.stringMatching(/--state must be one of/) });
    expect(JSON.parse((await agent('list', '--goal', "x' OR 1=1", '--json')).out)).toEqual({ error: expect.stringMatching(/--goal may hold/) });
  });

  it('reuses an id once its conversation has ended', async () => {
    const id = `reuse-${Date.now()}`;
    expect((await agent('start', '--id', id)).code).toBe(0);
    expect((await agent('start', '--id', id)).err).toMatch(/already running/);
    await agent('end', id);
    const again = await agent('start', '--id', id, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ id });
  });

  it('answers --json with JSON on stdout for errors too, exit code 1', async () => {
    const missing = await agent('say', 'no-such-conversation', 'hi', '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out)).toEqual({ error: 'No conversation with id no-such-conversation.' });
    const unknown = await agent('frobnicate', '--json');
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.out)).toEqual({ error: expect.stringMatching(/unknown command "frobnicate"/) });
  });
});
