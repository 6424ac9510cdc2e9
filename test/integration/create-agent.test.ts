// Agents created on demand (CreateAgent), on a real dev server, with the shipped offline demo script: asked for in a
// running conversation, checked against the live catalog, shown to the user in full, written to GOALS_DIR with its
// provenance once approved, and used at once — switched to and put to work in the same conversation, listed by a
// second worker. Rejecting, editing and a draft that cannot be a goal are tested too, and `agent goals`.
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import { loadScript } from '../../activities/llm/scripted-model';
import {
  completion,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  systemPrompt,
  toolResults,
  type ChatRequestBody,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { currentGoalQuery, endChatSignal } from '../../core/messages';
import { FX_STDIO } from '../fixtures/scripts';
import { runCli } from '../helpers/cli';
import { decide, say, startConversation } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const REQUEST = 'I need an agent that converts currency and checks account balances';

/** A model over HTTP that builds the agent, switches to it once created, and, as the new agent, uses its tool. */
function builderModel(body: ChatRequestBody) {
  const system = systemPrompt(body) ?? '';
  if (system.startsWith('You are "Balances over HTTP"')) {
    // Right after the switch the last result is ChangeGoal's; after that, it is the balances.
    if (isAfterTool(body) && !toolResults(body).at(-1)!.content.includes('switchedTo'))
      return completion({ text: 'Balances checked.' });
    return completion({ toolCalls: [{ name: 'AccountBalances', args: { accountId: '11235' } }] });
  }
  if (isAfterTool(body)) return completion({ toolCalls: [{ name: 'ChangeGoal', args: { goalId: 'goal_http_made' } }] });
  if (lastUserText(body).startsWith('Greet the user')) return completion({ text: 'What should the new agent do?' });
  const goal = {
    id: 'goal_http_made',
    category: 'finance',
    agentName: 'Balances over HTTP',
    agentFriendlyDescription: 'Checks account balances.',
    description: 'Check account balances with AccountBalances.',
    starterPrompt: 'Greet the user.',
    tools: ['AccountBalances'],
  };
  return completion({ toolCalls: [{ name: 'CreateAgent', args: { goal } }] });
}

describe('CreateAgent: agents made in a chat, usable at once', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  /** Another worker, on its own task queue, sharing the goals folder. */
  let other: Awaited<ReturnType<typeof startWorker>>;
  /** The model over HTTP (openai-compatible provider), its own goals folder. */
  let http: Awaited<ReturnType<typeof startWorker>>;
  let server: FakeChatCompletions;
  const goalsDir = mkdtempSync(path.join(tmpdir(), 'created-goals-'));

  beforeAll(async () => {
    const registry = path.join(mkdtempSync(path.join(tmpdir(), 'create-agent-mcp-')), 'mcp_endpoints.json');
    writeFileSync(registry, JSON.stringify({ mcpServers: { fx: FX_STDIO } }));
    env = await startTemporal();
    const script = loadScript(path.join(__dirname, '..', '..', 'config', 'scripted-model.json'));
    const settings = () =>
      testSettings({
        AGENT_GOAL: 'goal_choose_agent',
        VALIDATE_PROMPTS: 'false',
        GOALS_DIR: goalsDir,
        MCP_ENDPOINTS_FILE: registry,
      });
    [worker, other] = await Promise.all([
      startWorker(env, { script, settings: settings() }),
      startWorker(env, { script, settings: settings() }),
    ]);
    server = await startFakeChatCompletions(builderModel);
    http = await startWorker(env, {
      model: createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: 'sk-test' }),
      settings: testSettings({
        AGENT_GOAL: 'goal_agent_builder',
        MULTI_GOAL: 'true',
        VALIDATE_PROMPTS: 'false',
        SHOW_CONFIRM: 'false',
        GOALS_DIR: mkdtempSync(path.join(tmpdir(), 'http-goals-')),
      }),
    });
  });
  afterAll(async () => {
    await http?.stop();
    await server?.close();
    await worker?.stop();
    await other?.stop();
    await env?.teardown();
  });

  const builder = async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    expect((await say(handle, 'I need a new agent')).reply).toMatch(/^You're with the Agent builder now/);
    return handle;
  };
  const cli = (queue: string, ...args: string[]) => runCli(args, { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: queue });

  it('always shows the whole definition first; a rejection writes nothing', async () => {
    const handle = await builder();
    const asked = await say(handle, REQUEST);
    expect(asked.pendingToolCall).toMatchObject({
      tool: 'CreateAgent',
      description: 'Save this new agent to the goals folder; it is usable at once.',
      call: {
        args: {
          goal: expect.objectContaining({
            id: 'goal_fx_balances',
            tools: ['FindAccount', 'AccountBalances'],
            mcp: { servers: ['fx'] },
          }),
        },
      },
    });
    const no = await decide(handle, { approve: false, reason: 'not today' });
    expect(no.reply).toBe('OK, I did not create it (not today). What should I change?');
    expect(readdirSync(goalsDir)).toEqual([]);
    await handle.signal(endChatSignal);
  });

  it('takes the definition as the user edited it, checked again', async () => {
    const handle = await builder();
    const asked = await say(handle, REQUEST);
    const draft = (asked.pendingToolCall!.call.args as { goal: Record<string, unknown> }).goal;
    // An edit that breaks it is refused with the reason, and nothing is written.
    const broken = await say(handle, REQUEST);
    const refused = await decide(handle, {
      approve: true,
      args: { goal: { ...draft, tools: ['Teleport'] } },
      callId: broken.pendingToolCall!.call.id,
    });
    expect(refused.reply).toMatch(/^That agent cannot be made: .*unknown tool\(s\): Teleport/);
    expect(readdirSync(goalsDir)).toEqual([]);

    const again = await say(handle, REQUEST);
    const done = await decide(handle, {
      approve: true,
      args: { goal: { ...draft, id: 'goal_fx_edited', agentName: 'Edited FX' } },
    });
    expect(done.reply).toBe('The agent goal_fx_edited is ready. Say "switch to goal_fx_edited" to use it.');
    expect(again.pendingToolCall?.tool).toBe('CreateAgent');
    const written = JSON.parse(readFileSync(path.join(goalsDir, 'goal_fx_edited.json'), 'utf8'));
    expect(written).toMatchObject({
      id: 'goal_fx_edited',
      agentName: 'Edited FX',
      provenance: { createdBy: handle.workflowId, request: REQUEST },
    });
    await handle.signal(endChatSignal);
  });

  it('creates the agent, switches to it and uses its tool in the same conversation; another worker lists it', async () => {
    const handle = await builder();
    const asked = await say(handle, REQUEST);
    expect(asked.pendingToolCall?.tool).toBe('CreateAgent');
    expect((await decide(handle, { approve: true })).reply).toBe(
      'The agent goal_fx_balances is ready. Say "switch to goal_fx_balances" to use it.',
    );
    const file = path.join(goalsDir, 'goal_fx_balances.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).provenance).toEqual({
      createdBy: handle.workflowId,
      callId: asked.pendingToolCall!.call.id,
      createdAt: expect.any(String),
      request: REQUEST,
    });

    expect((await say(handle, 'switch to goal_fx_balances')).reply).toBe(
      'You\'re with FX and balances now. Try "balance for 11235".',
    );
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_fx_balances');
    expect((await say(handle, 'balance for 11235')).reply).toMatch(/^Ada Lovelace, your balances: /);

    // The same id again is refused before anyone is asked, with the reason.
    await say(handle, 'I need a new agent');
    const dup = await say(handle, REQUEST);
    expect(dup.pendingToolCall).toBeNull();
    expect(dup.reply).toMatch(/^That agent cannot be made: .*the id goal_fx_balances is taken/);

    const agents = JSON.parse((await cli(other.worker.options.taskQueue, 'agents', '--json')).out) as {
      goalId: string;
    }[];
    expect(agents.map((a) => a.goalId)).toEqual(expect.arrayContaining(['goal_fx_balances', 'goal_fx_edited']));
    await handle.signal(endChatSignal);
  });

  it('over HTTP (openai-compatible): the model drafts the agent, the user approves, and the new agent works in the same conversation', async () => {
    const { handle } = await startConversation(env.client, http.worker.options.taskQueue, {
      goalId: 'goal_agent_builder',
    });
    const asked = await say(handle, REQUEST);
    // SHOW_CONFIRM is off here: CreateAgent asks anyway.
    expect(asked.pendingToolCall).toMatchObject({
      tool: 'CreateAgent',
      call: { args: { goal: expect.objectContaining({ id: 'goal_http_made' }) } },
    });
    const done = await decide(handle, { approve: true });
    expect(done.reply).toBe('Balances checked.');
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_http_made');
    // The new agent's first request offered it its own tool.
    const first = server.requests.find((r) => (systemPrompt(r.body) ?? '').startsWith('You are "Balances over HTTP"'));
    expect(first?.body.tools?.map((t) => t.function.name)).toEqual(expect.arrayContaining(['AccountBalances']));
    await handle.signal(endChatSignal);
  });

  it('agent goals lists goal files with provenance, and sets one aside, brings it back, or removes it', async () => {
    const queue = worker.worker.options.taskQueue;
    const listed = await cli(queue, 'goals');
    expect(listed.out).toMatch(
      new RegExp(`^goal_fx_balances\\s+enabled .*goal_fx_balances\\.json  created by \\S+ at .*: "${REQUEST}"`, 'm'),
    );
    expect((await cli(queue, 'goals', 'disable', 'goal_fx_edited')).code).toBe(0);
    const ids = async () =>
      (JSON.parse((await cli(queue, 'agents', '--json')).out) as { goalId: string }[]).map((a) => a.goalId);
    expect(await ids()).not.toContain('goal_fx_edited');
    await cli(queue, 'goals', 'enable', 'goal_fx_edited');
    expect(await ids()).toContain('goal_fx_edited');
    await cli(queue, 'goals', 'remove', 'goal_fx_edited');
    expect(existsSync(path.join(goalsDir, 'goal_fx_edited.json'))).toBe(false);
    expect(await cli(queue, 'goals', 'remove', 'goal_hr_pto')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/No goal file for goal_hr_pto/),
    });
  });
});
