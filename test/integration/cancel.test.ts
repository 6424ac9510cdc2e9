// `agent cancel` stops the running turn: the model call or tool in flight is cancelled (the HTTP request to the
// model is dropped, a native tool sees its AbortSignal, an MCP server gets notifications/cancelled), and the agent
// waits for the next prompt. A real dev server and worker, a real MCP server process, the model a local server.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { AgentClient } from '../../client/agent-client';
import { loadNativeTools, ToolRegistry } from '../../tools/tool-registry';
import { napTool } from '../fixtures/nap-tool';
import { statusQuery } from '../../core/messages';
import {
  completion,
  lastUserText,
  startFakeChatCompletions,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { history, say, startConversation, toolOutcomes, waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const TSX = ['--require', 'tsx/cjs'];
const dir = mkdtempSync(path.join(tmpdir(), 'cancel-'));
const chaosLog = path.join(dir, 'chaos.log');

/** A slow state-changing tool: it commits after `seconds` unless cancelled first. */
const naps: string[] = [];
const nap = napTool(naps);

const goal = {
  id: 'goal_slow_things',
  category: 'test',
  agentName: 'Slow agent',
  agentFriendlyDescription: 'Does slow things.',
  description: 'Runs slow tools.',
  starterPrompt: 'Greet the user.',
  tools: ['Nap'],
  mcp: { servers: ['chaos'] },
};

const script: ScriptInput = {
  rules: [
    { goal: goal.id, user: '^Greet', reply: { text: 'Hi.' } },
    {
      goal: goal.id,
      user: 'nap',
      reply: {
        toolCalls: [
          { tool: 'Nap', args: { seconds: 60 } },
          { tool: 'Nap', args: { seconds: 1 } },
        ],
      },
    },
    { goal: goal.id, user: 'remote', reply: { toolCalls: [{ tool: 'chaos__wait_for_cancel', args: {} }] } },
    { goal: goal.id, user: 'hello', reply: { text: 'Hello again.' } },
  ],
};

describe('cancelling the running turn', () => {
  let env: TestWorkflowEnvironment;
  let model: FakeChatCompletions;
  const modelHungUp: string[] = [];
  let llmWorker: Awaited<ReturnType<typeof startWorker>>;
  let toolWorker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    model = await startFakeChatCompletions(async (body, request) => {
      if (!lastUserText(body).includes('slow')) return completion({ text: 'Hello.' });
      await new Promise<void>((resolve) => request.hungUp.addEventListener('abort', () => resolve()));
      modelHungUp.push(lastUserText(body));
      return completion({ text: 'too late' });
    });
    writeFileSync(path.join(dir, 'slow.json'), JSON.stringify(goal));
    const registry = path.join(dir, 'mcp.json');
    writeFileSync(
      registry,
      JSON.stringify({
        mcpServers: {
          chaos: {
            command: process.execPath,
            args: [...TSX, 'test/fixtures/mcp/chaos-server.ts'],
            env: { CHAOS_LOG: chaosLog },
            timeoutMs: 60_000,
          },
        },
      }),
    );
    env = await startTemporal();
    llmWorker = await startWorker(env, {
      model: createModel({ model: 'openai-compatible:test-model', baseUrl: model.baseUrl, key: 'k' }),
      settings: testSettings({ VALIDATE_PROMPTS: 'false' }),
    });
    toolWorker = await startWorker(env, {
      script,
      tools: new ToolRegistry([...loadNativeTools().all(), nap]),
      settings: testSettings({
        AGENT_GOAL: goal.id,
        GOALS_DIR: dir,
        MCP_ENDPOINTS_FILE: registry,
        SHOW_CONFIRM: 'false',
        VALIDATE_PROMPTS: 'false',
      }),
    });
  });
  afterAll(async () => {
    await llmWorker?.stop();
    await toolWorker?.stop();
    await model?.close();
    await env?.teardown();
  });

  it('during a slow model call: the request is dropped, the prompt gets the stop as its reply, the next turn runs', async () => {
    const client = new AgentClient(env.client, llmWorker.worker.options.taskQueue);
    const { handle } = await startConversation(env.client, llmWorker.worker.options.taskQueue, {
      goalId: 'goal_hr_pto',
    });
    const pending = say(handle, 'please be slow');
    await waitUntil(async () => model.requests.some((r) => lastUserText(r.body).includes('slow')));
    const began = Date.now();
    const stopped = await client.cancel(handle.workflowId);
    expect(stopped.reply).toBe('Stopped, as you asked. What would you like to do next?');
    // The model call is dropped at once (TRY_CANCEL), not after its 60 s timeout; generous for a loaded machine.
    expect(Date.now() - began).toBeLessThan(15_000);
    expect((await pending).reply).toBe(stopped.reply);
    // The activity heard of the cancel (heartbeats every 2 s) and aborted the HTTP request to the model.
    await waitUntil(async () => modelHungUp.length === 1, 10_000);
    expect((await say(handle, 'hello')).reply).toBe('Hello.');
    await expect(client.cancel(handle.workflowId)).rejects.toThrow(/Cannot cancel: nothing is running/);
  });

  it('during a slow native tool: the tool sees its AbortSignal and commits nothing; the next call is declined', async () => {
    const client = new AgentClient(env.client, toolWorker.worker.options.taskQueue);
    const { handle } = await startConversation(env.client, toolWorker.worker.options.taskQueue, { goalId: goal.id });
    const pending = say(handle, 'take a nap');
    await waitUntil(async () => naps.length > 0);
    const began = Date.now();
    const stopped = await client.cancel(handle.workflowId);
    // The tool stopped on its signal (heartbeat ≤ 2 s, throttle ≤ 2 s), not at its own 60 s.
    expect(Date.now() - began).toBeLessThan(20_000);
    expect(stopped.reply).toMatch(/^Stopped/);
    expect((await pending).reply).toBe(stopped.reply);
    expect(naps).toEqual(['started', 'aborted']);
    expect(toolOutcomes(await history(handle), 'Nap').map((m) => m.outcome)).toEqual([
      { status: 'tool_error', error: 'Cancelled by the user before it finished; it did not complete.' },
      { status: 'rejected', reason: 'the user cancelled the turn' },
    ]);
    expect((await handle.query(statusQuery)).state).toBe('waiting_for_user');
  });

  it('during a slow MCP call: the server is sent notifications/cancelled, and the user is told it may have acted', async () => {
    const client = new AgentClient(env.client, toolWorker.worker.options.taskQueue);
    const { handle } = await startConversation(env.client, toolWorker.worker.options.taskQueue, { goalId: goal.id });
    const pending = say(handle, 'call the remote tool');
    await waitUntil(
      async () =>
        (await handle.describe()).raw.pendingActivities?.some(
          (a) => a.activityType?.name === 'callMcpTool' && a.state === 2,
        ) ?? false,
    );
    const began = Date.now();
    const stopped = await client.cancel(handle.workflowId);
    expect(Date.now() - began).toBeLessThan(20_000);
    expect((await pending).reply).toBe(stopped.reply);
    await waitUntil(async () => existsSync(chaosLog) && readFileSync(chaosLog, 'utf8').includes('cancelled'), 10_000);
    expect(readFileSync(chaosLog, 'utf8')).toMatch(/^cancelled mcp-\S+\n$/);
    expect(toolOutcomes(await history(handle), 'chaos__wait_for_cancel').map((m) => m.outcome)).toEqual([
      {
        status: 'tool_error',
        error:
          'Cancelled by the user while chaos/wait_for_cancel ran; it may or may not have acted. Check before trying again.',
      },
    ]);
  });
});
