// `agent goal-files prune --unused-for`: agents created in chats (goal files with CreateAgent's provenance) that no
// conversation used for that long are listed, and disabled with --yes; a used one and a hand-written one are not.
// A real dev server and worker: "used" is what Temporal's list knows (the AgentGoal search attribute).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../../client/agent-client';
import { endChatSignal } from '../../core/messages';
import { runCli } from '../helpers/cli';
import { startConversation, waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const TEN_DAYS_AGO = new Date(Date.now() - 10 * 86_400_000).toISOString();

function goal(id: string, provenance?: object) {
  return {
    id,
    category: 'test-agents',
    agentName: id,
    agentFriendlyDescription: `${id} (test)`,
    description: 'Says hello.',
    starterPrompt: 'Greet the user',
    exampleConversation: '',
    tools: [],
    ...(provenance ? { provenance } : {}),
  };
}

describe('agent goal-files prune', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let cliEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const goals = mkdtempSync(path.join(tmpdir(), 'goals-prune-'));
    const made = (id: string) => ({
      createdBy: 'convo-builder',
      callId: `call-${id}`,
      createdAt: TEN_DAYS_AGO,
      request: `make ${id}`,
    });
    for (const g of [goal('goal_used', made('used')), goal('goal_idle', made('idle')), goal('goal_by_hand')])
      writeFileSync(path.join(goals, `${g.id}.json`), JSON.stringify(g));
    env = await startTemporal();
    const settings = testSettings({ GOALS_DIR: goals });
    worker = await startWorker(env, {
      script: { rules: [{ user: '^Greet the user', reply: { text: 'Hello.' } }] },
      settings,
    });
    cliEnv = { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: settings.taskQueue, PATH: process.env.PATH };
    const { handle } = await startConversation(env.client, settings.taskQueue, { goalId: 'goal_used' });
    await handle.signal(endChatSignal);
    // Temporal's list answers a moment after the conversation listed its goal.
    const agents = new AgentClient(env.client, settings.taskQueue);
    await waitUntil(async () => (await agents.list({ goal: 'goal_used' })).length > 0);
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  it('lists the chat-made agents nobody used, disables them only with --yes', async () => {
    const listed = await runCli(['goal-files', 'prune', '--unused-for', '7d'], cliEnv);
    expect(listed).toMatchObject({ code: 0, err: '' });
    expect(listed.out).toMatch(/^1 agent\(s\) created in chats are unused for 7d; nothing was disabled/);
    expect(listed.out).toMatch(/goal_idle {2}created .* in convo-builder; never used/);
    expect(listed.out).not.toMatch(/goal_used|goal_by_hand/);

    // `goals` is the old name of the command.
    const disabled = await runCli(['goals', 'prune', '--unused-for', '7d', '--yes', '--json'], cliEnv);
    expect(JSON.parse(disabled.out)).toMatchObject({ unused: [{ goalId: 'goal_idle' }], disabled: ['goal_idle'] });
    const files = JSON.parse((await runCli(['goal-files', '--json'], cliEnv)).out) as {
      goalId: string;
      disabled: boolean;
    }[];
    expect(Object.fromEntries(files.map((f) => [f.goalId, f.disabled]))).toEqual({
      goal_used: false,
      goal_idle: true,
      goal_by_hand: false,
    });
    expect((await runCli(['goal-files', 'prune', '--unused-for', '7d'], cliEnv)).out).toBe(
      'No agent created in a chat has been unused for 7d.\n',
    );
    expect((await runCli(['goal-files', 'prune'], cliEnv)).err).toMatch(/usage: agent goal-files prune --unused-for/);
  });
});
