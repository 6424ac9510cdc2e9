// Tools made on demand, end to end on a real dev server and worker: a conversation asks for URL extraction, the
// scripted model drafts a tool (CreateTool), the worker checks it in its sandbox, the user approves it seeing the code
// and how each example ran, the tool is written to TOOLS_DIR and runs in the same conversation; CreateAgent makes an
// agent that uses it, and a second conversation uses that agent. Over HTTP (the OpenAI-compatible provider), a draft
// whose example fails goes back to the model with the reason, and the model's corrected draft is the one approved.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import {
  completion,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  toolResults,
  type ChatRequestBody,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { decide, history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { AgentClient } from '../../client/agent-client';
import { Listings } from '../../client/listings';
import { EXTRACT_URLS_DRAFT, madeToolScript, SAMPLE_TEXT, WRONG_EXAMPLE_DRAFT } from '../fixtures/made-tools';

describe('CreateTool: a tool made, checked, approved and used in the same conversation', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  const toolsDir = mkdtempSync(path.join(tmpdir(), 'made-tools-e2e-'));
  const goalsDir = mkdtempSync(path.join(tmpdir(), 'made-tools-goals-'));

  beforeAll(async () => {
    env = await startTemporal();
    worker = await startWorker(env, {
      script: madeToolScript,
      settings: testSettings({
        AGENT_GOAL: 'goal_agent_builder',
        VALIDATE_PROMPTS: 'false',
        TOOLS_DIR: toolsDir,
        GOALS_DIR: goalsDir,
      }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  it('makes extract_urls, uses it, gives it to a new agent, and that agent uses it in a second conversation', async () => {
    const queue = worker.worker.options.taskQueue;
    const { handle } = await startConversation(env.client, queue, { goalId: 'goal_agent_builder' });

    const asked = await say(handle, 'I need to extract the URLs from texts and count the domains');
    expect(asked.pendingToolCall).toMatchObject({ tool: 'CreateTool', call: { args: { name: 'extract_urls' } } });
    // The user sees the code (the call's arguments) and how each example ran in the sandbox.
    const shown = asked.pendingToolCall!.description;
    expect(shown).toMatch(/^Save this tool to the tools folder/);
    expect(shown).toContain(
      '2. {"text":"see https://a.com/x"} → {"count":1,"urls":["https://a.com/x"],"domains":{"a.com":1}} ✓',
    );
    expect(asked.pendingToolCall!.call.args.code).toBe(EXTRACT_URLS_DRAFT.code);
    expect(readdirSync(toolsDir)).toEqual([]); // nothing written before approval

    const used = await decide(handle, { approve: true });
    expect(used.reply).toBe('extract_urls works: 3 URLs in the sample. Shall I make an agent that uses it?');
    const file = JSON.parse(readFileSync(path.join(toolsDir, 'extract_urls.v1.json'), 'utf8'));
    expect(file).toMatchObject({
      name: 'extract_urls',
      version: 1,
      isPure: true,
      code: EXTRACT_URLS_DRAFT.code,
      provenance: {
        createdBy: handle.workflowId,
        request: 'I need to extract the URLs from texts and count the domains',
        model: expect.stringMatching(/^scripted/),
      },
    });
    const messages = await history(handle);
    expect(toolOutcomes(messages, 'CreateTool')).toMatchObject([
      { outcome: { status: 'ok', result: { created: 'extract_urls', version: 1 } } },
    ]);
    expect(toolOutcomes(messages, 'extract_urls')).toMatchObject([
      { outcome: { status: 'ok', result: { count: 3, domains: { 'temporal.io': 2, 'nodejs.org': 1 } } } },
    ]);
    // The call ran as the made tool's activity, named by tool and version.
    const events = (await handle.fetchHistory()).events ?? [];
    const made = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runMadeTool');
    expect(made).toHaveLength(1);

    const agent = await say(handle, 'now make an agent that uses it');
    expect(agent.pendingToolCall).toMatchObject({ tool: 'CreateAgent' });
    expect((await decide(handle, { approve: true })).reply).toBe('The agent goal_url_extractor is ready.');

    const second = await startConversation(env.client, queue, { goalId: 'goal_url_extractor' });
    const answer = await say(second.handle, `what are the links in: ${SAMPLE_TEXT} and https://example.com`);
    expect(answer).toMatchObject({ reply: '4 links.', pendingToolCall: null });
    // Its usage, from the two conversations' histories: the check's call in the first, this one in the second.
    const registry = new Listings(new AgentClient(env.client, queue));
    expect((await registry.madeTools())[0]).toMatchObject({ name: 'extract_urls', usage: { calls: 2, errors: 0 } });
  });

  it('refuses a draft that never stops, with the reason, and the worker goes on', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_agent_builder',
    });
    const reply = await say(handle, 'a tool that never stops');
    expect(reply.pendingToolCall).toBeNull();
    expect(reply.reply).toMatch(/That tool cannot be made: .*example 1: stopped after 1000 ms of CPU time/);
    expect(readdirSync(toolsDir).filter((f) => f.startsWith('spin'))).toEqual([]);
    expect((await say(handle, 'a tool that never stops')).reply).toMatch(/stopped after 1000 ms/);
  });

  it('refuses a draft whose name a made tool has, before the user is asked', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_agent_builder',
    });
    // The scripted rule drafts extract_urls; the folder has it now, so the draft's name is taken.
    const reply = await say(handle, 'extract the URLs again please');
    expect(reply.pendingToolCall).toBeNull();
    expect(reply.reply).toMatch(/That tool cannot be made: .*extract_urls is taken by a made tool \(v1\)/);
  });
});

/** Over HTTP: the model's first draft has an example that fails; told why, it sends the corrected one. */
function draftingModel(body: ChatRequestBody) {
  if (lastUserText(body).startsWith('Greet')) return completion({ text: 'What should I build?' });
  const last = toolResults(body).at(-1);
  if (!isAfterTool(body)) return completion({ toolCalls: [{ name: 'CreateTool', args: { ...WRONG_EXAMPLE_DRAFT } }] });
  if (last!.content.includes('example 3: expected'))
    return completion({ toolCalls: [{ name: 'CreateTool', args: { ...EXTRACT_URLS_DRAFT } }] });
  return completion({ text: 'Done.' });
}

describe('CreateTool over HTTP: a failing draft goes back to the model with the reasons', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let server: FakeChatCompletions;
  const toolsDir = mkdtempSync(path.join(tmpdir(), 'made-tools-http-'));

  beforeAll(async () => {
    env = await startTemporal();
    server = await startFakeChatCompletions(draftingModel);
    worker = await startWorker(env, {
      model: createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: 'sk-test' }),
      settings: testSettings({ AGENT_GOAL: 'goal_agent_builder', VALIDATE_PROMPTS: 'false', TOOLS_DIR: toolsDir }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await server?.close();
    await env?.teardown();
  });

  it('asks the user only about the corrected draft, and a rejection writes nothing', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_agent_builder',
    });
    const asked = await say(handle, 'a tool to extract URLs');
    expect(asked.pendingToolCall?.call.args).toEqual(EXTRACT_URLS_DRAFT);
    const outcomes = toolOutcomes(await history(handle), 'CreateTool');
    expect(outcomes[0]).toMatchObject({
      outcome: {
        status: 'invalid_input',
        problems: [
          expect.stringMatching(/^example 3: expected \{"count":2,"urls":\[\],"domains":\{\}\}, got \{"count":2/),
        ],
      },
    });
    // The model saw the reason over the wire.
    expect(server.requests.some((r) => JSON.stringify(r.body).includes('example 3: expected'))).toBe(true);

    await decide(handle, { approve: false, reason: 'not now' });
    expect(readdirSync(toolsDir)).toEqual([]);
  });

  it('writes the draft as the user edited it, checked again; an edit that breaks it writes nothing', async () => {
    const queue = worker.worker.options.taskQueue;
    const first = await startConversation(env.client, queue, { goalId: 'goal_agent_builder' });
    expect((await say(first.handle, 'a tool to extract URLs')).pendingToolCall?.tool).toBe('CreateTool');
    const broken = { ...EXTRACT_URLS_DRAFT, code: 'return 1;' };
    await decide(first.handle, { approve: true, args: broken });
    expect(toolOutcomes(await history(first.handle), 'CreateTool').at(-1)).toMatchObject({
      outcome: {
        status: 'invalid_input',
        problems: expect.arrayContaining([expect.stringMatching(/^example 1: expected .*, got 1$/)]),
      },
    });
    expect(readdirSync(toolsDir)).toEqual([]);

    const second = await startConversation(env.client, queue, { goalId: 'goal_agent_builder' });
    await say(second.handle, 'a tool to extract URLs');
    await decide(second.handle, { approve: true, args: { ...EXTRACT_URLS_DRAFT, name: 'links_by_domain' } });
    expect(toolOutcomes(await history(second.handle), 'CreateTool').at(-1)).toMatchObject({
      outcome: { status: 'ok', result: { created: 'links_by_domain', version: 1 } },
    });
    expect(readdirSync(toolsDir)).toEqual(['links_by_domain.v1.json']);
  });
});
