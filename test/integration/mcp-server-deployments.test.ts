// One deployment's agent delegates to another's over MCP: deployment B (a worker process of its own, its own task
// queue and MCP registry) names deployment A's /mcp in its registry with A's API key from its environment. B's agent
// starts conversations with A's PTO agent and follows up; A's approvals reach B's user intact, both ways: as a
// question (B's MCP client declares elicitation, so A asks through it and B's conversation carries the form), or,
// when B's user declines the question, as a pending call B's agent approves with approve_call, which B asks its user
// about first (it is destructive). A sees ordinary conversations, owned by B's key.
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { ptoScript } from '../fixtures/scripts';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { scriptedWorkerSettings, startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { week } from '../../testkit/days';

const B_KEY = 'deployment-b-key-0123456789';

/** Deployment B's model: it reaches A's PTO agent through the registry entry `hrdesk`. */
const deploymentB: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi, I can reach the HR desk of the other office.' } },
    {
      user: 'ask the hr desk to (book .+)',
      reply: {
        toolCalls: [{ tool: 'hrdesk__start_conversation', args: { goalId: 'goal_hr_pto', message: '{{1}}' } }],
      },
    },
    {
      afterTool: 'hrdesk__start_conversation',
      outcome: 'ok',
      reply: { text: 'HR desk {{result.conversationId}}: {{result.reply}}' },
    },
    {
      user: 'approve the booking on (\\S+)',
      reply: { toolCalls: [{ tool: 'hrdesk__approve_call', args: { conversationId: '{{1}}' } }] },
    },
    { afterTool: 'hrdesk__approve_call', outcome: 'ok', reply: { text: 'HR desk: {{result.reply}}' } },
    {
      user: 'tell the hr desk on (\\S+): (.+)',
      reply: { toolCalls: [{ tool: 'hrdesk__send_message', args: { conversationId: '{{1}}', text: '{{2}}' } }] },
    },
    { afterTool: 'hrdesk__send_message', outcome: 'ok', reply: { text: 'HR desk: {{result.reply}}' } },
    { outcome: 'tool_error', reply: { text: 'The HR desk failed: {{outcome.error}}' } },
  ],
};

describe('agents delegating across deployments over /mcp', () => {
  const mon = week(4);
  const tue = week(4, 1);
  let env: TestWorkflowEnvironment;
  let workerA: Awaited<ReturnType<typeof startWorker>>;
  let apiA: RunningApi;
  let workerB: WorkerProcess;
  let a: AgentClient;
  let b: AgentClient;

  beforeAll(async () => {
    env = await startTemporal();
    const settingsA = testSettings({ VALIDATE_PROMPTS: 'false' });
    workerA = await startWorker(env, { script: ptoScript, settings: settingsA });
    a = new AgentClient(env.client, settingsA.taskQueue);
    apiA = await startApi({
      agents: a,
      bus: workerA.streamBus,
      defaultGoal: 'goal_hr_pto',
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: new ApiKeys([`deployment-b=${B_KEY}`], []),
        bodyLimitBytes: 64 * 1024,
        corsOrigins: [],
      },
    });
    const taskQueueB = `deployment-b-${process.pid}`;
    const { dir, env: settingsB } = scriptedWorkerSettings('mcp-deployment-b', {
      address: env.address,
      taskQueue: taskQueueB,
      script: deploymentB,
      mcpServers: {
        hrdesk: {
          url: `${apiA.url}/mcp`,
          headers: { Authorization: 'Bearer ${env:HRDESK_KEY}' },
          requireApproval: 'destructive',
        },
      },
    });
    workerB = await startWorkerProcess({ ...settingsB, HRDESK_KEY: B_KEY, DATA_DIR: path.join(dir, 'data') });
    b = new AgentClient(env.client, taskQueueB);
  }, 60_000);
  afterAll(async () => {
    await workerB?.kill();
    await apiA?.close();
    await workerA?.stop();
    await env?.teardown();
  });

  /** B's conversation asks A's booking; the id of A's conversation, from B's reply. */
  const remoteIdOf = (reply: string) => /^HR desk (\S+):/.exec(reply)?.[1] ?? `(none in: ${reply})`;

  it("carries A's approval to B's user as a question, and B's agent follows up on A's conversation", async () => {
    const { id } = await b.start('goal_general');
    const asked = await b.say(id, `ask the hr desk to book ${mon} to ${tue} for ada@example.com`);
    expect(asked.question).toMatchObject({
      kind: 'form',
      tool: 'hrdesk__start_conversation',
      message: expect.stringMatching(new RegExp(`wants to run BookPTO .*"startDate":"${mon}"`)),
      schema: { properties: { approve: { type: 'boolean' } }, required: ['approve'] },
    });
    const booked = await b.answer(id, {
      questionId: asked.question!.id,
      answer: { action: 'accept', content: { approve: true } },
    });
    expect(booked.reply).toMatch(new RegExp(`^HR desk \\S+: Booked ${mon} to ${tue}; \\d+ hours left\\.$`));
    const remoteId = remoteIdOf(booked.reply);

    const followUp = await b.say(id, `tell the hr desk on ${remoteId}: balance for ada@example.com`);
    expect(followUp.reply).toMatch(/^HR desk: You have \d+ hours of PTO left\.$/);

    // On A, an ordinary conversation of B's key, with the booking in it.
    const remote = await a.feed(remoteId, 0);
    expect(remote).toMatchObject({ owner: 'deployment-b', goalId: 'goal_hr_pto', state: 'waiting_for_user' });
    expect(remote.messages.map((m) => m.message)).toContainEqual(
      expect.objectContaining({ kind: 'tool', call: expect.objectContaining({ tool: 'BookPTO' }) }),
    );
    // A's key stayed in B's worker: B's conversation never carried it.
    expect(JSON.stringify(await b.history(id))).not.toContain(B_KEY);
  });

  it("leaves A's call pending when B's user declines the question; B's agent approves it once B's user agrees", async () => {
    const { id } = await b.start('goal_general');
    const asked = await b.say(id, `ask the hr desk to book ${week(6)} to ${week(6, 1)} for ada@example.com`);
    const declined = await b.answer(id, { questionId: asked.question!.id, answer: { action: 'decline' } });
    expect(declined.reply).toMatch(/^HR desk \S+: Booking that now\.$/);
    const remoteId = remoteIdOf(declined.reply);
    expect((await a.status(remoteId)).state).toBe('awaiting_approval');

    const proposal = await b.say(id, `approve the booking on ${remoteId}`);
    expect(proposal.pendingToolCall?.call).toMatchObject({
      tool: 'hrdesk__approve_call',
      args: { conversationId: remoteId },
    });
    const booked = await b.confirm(id, { approve: true });
    expect(booked.reply).toMatch(new RegExp(`^HR desk: Booked ${week(6)} to ${week(6, 1)}; \\d+ hours left\\.$`));
    expect((await a.status(remoteId)).state).toBe('waiting_for_user');
  });
});
