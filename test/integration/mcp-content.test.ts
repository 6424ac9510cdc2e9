// The MCP reference server (server-everything, real, over stdio and over Streamable HTTP) in conversations on a real
// dev server and worker: structured content, resource links, an embedded resource, an image and an annotated message
// each come back as typed parts and reach the model in the form it takes; its resources and prompts are listed
// (CLI, API), a resource is attached to a message, and a prompt opens a conversation.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { readApiSettings } from '../../api/api-settings';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import type { ChatMessage, ToolContent } from '../../core/types';
import { endChatSignal } from '../../core/messages';
import { runCli } from '../helpers/cli';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { everythingStdio, startEverythingHttp } from '../../testkit/everything-server';
import { recording } from '../../testkit/recording-model';
import {
  completion,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  toolResults,
} from '../../testkit/fake-chat-completions';
import { createModel } from '../../activities/llm/model';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

/** What the user says, the tool it makes the model call, and with what. */
const ASKS = [
  ['weather', 'get-structured-content', { location: 'Chicago' }],
  ['links', 'get-resource-links', { count: 2 }],
  ['reference', 'get-resource-reference', { resourceType: 'Text', resourceId: 1 }],
  ['image', 'get-tiny-image', {}],
  ['annotated', 'get-annotated-message', { messageType: 'error', includeImage: true }],
] as const;
const SERVERS = ['ev', 'evh'] as const;

const script: ScriptInput = {
  rules: [
    ...SERVERS.flatMap((s) =>
      ASKS.map(([word, tool, args]) => ({
        user: `^${s} ${word}$`,
        reply: { toolCalls: [{ tool: `${s}__${tool}`, args: { ...args } }] },
      })),
    ),
    ...SERVERS.map((s) => ({
      afterTool: `${s}__get-structured-content`,
      outcome: 'ok' as const,
      reply: { text: 'It is {{result.temperature}} degrees: {{result.conditions}}.' },
    })),
    { outcome: 'ok', reply: { text: 'Done.' } },
    { outcome: 'tool_error', reply: { text: 'Failed: {{outcome.error}}' } },
  ],
  fallback: { text: 'Noted.' },
};

const content = (messages: ChatMessage[], tool: string): ToolContent[] => {
  const outcome = toolOutcomes(messages, tool)[0]?.outcome;
  if (outcome?.status !== 'ok') throw new Error(`${tool}: ${JSON.stringify(outcome)}`);
  return outcome.content ?? [];
};

describe('server-everything through conversations: content, resources and prompts', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  let api: RunningApi;
  let agents: AgentClient;
  const bus = createStreamBus();
  const model = recording(script);
  let registry: string;
  let cli: (args: string[]) => ReturnType<typeof runCli>;

  beforeAll(async () => {
    registry = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-content-')), 'mcp_endpoints.json');
    [env, http] = await Promise.all([startTemporal(), startEverythingHttp()]);
    writeFileSync(
      registry,
      JSON.stringify({
        mcpServers: {
          ev: everythingStdio(),
          evh: { url: http.url, requireApproval: 'destructive' },
          fx: { command: process.execPath, args: ['--require', 'tsx/cjs', 'mcp/servers/fx.ts'] },
        },
      }),
    );
    const settings = testSettings({
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: registry,
    });
    worker = await startWorker(env, { model, settings });
    agents = new AgentClient(env.client, settings.taskQueue);
    api = await startApi({
      agents,
      bus,
      defaultGoal: 'goal_general',
      settings: { ...readApiSettings({}), port: 0, host: '127.0.0.1', keys: null },
    });
    cli = (args) => runCli(args, { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: settings.taskQueue });
  });
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await http?.end();
    await bus.close();
    await env?.teardown();
  });

  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${api.url}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it.each(SERVERS)('keeps each kind of content as typed parts and tells the model in words (%s)', async (s) => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_general',
    });
    const replies: string[] = [];
    for (const [word] of ASKS) replies.push((await say(handle, `${s} ${word}`)).reply);
    const messages = await history(handle);
    await handle.signal(endChatSignal);

    // Structured content, checked against the tool's outputSchema, is the result itself.
    expect(replies[0]).toBe('It is 36 degrees: Light rain / drizzle.');
    expect(toolOutcomes(messages, `${s}__get-structured-content`)[0]?.outcome).toEqual({
      status: 'ok',
      result: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
    });
    expect(replies.slice(1)).toEqual(['Done.', 'Done.', 'Done.', 'Done.']);

    expect(content(messages, `${s}__get-resource-links`)).toEqual([
      { type: 'text', text: 'Here are 2 resource links to resources available in this server:' },
      expect.objectContaining({
        type: 'resource_link',
        uri: 'demo://resource/dynamic/blob/1',
        name: 'Blob Resource 1',
      }),
      expect.objectContaining({
        type: 'resource_link',
        uri: 'demo://resource/dynamic/text/2',
        mimeType: 'text/plain',
      }),
    ]);
    expect(content(messages, `${s}__get-resource-reference`)[1]).toEqual({
      type: 'resource',
      uri: 'demo://resource/dynamic/text/1',
      mimeType: 'text/plain',
      text: expect.stringMatching(/^Resource 1: This is a plaintext resource created at /),
    });
    const image = content(messages, `${s}__get-tiny-image`);
    expect(image[1]).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: expect.stringMatching(/^iVBORw0KGgo/),
      bytes: expect.any(Number),
    });
    expect(content(messages, `${s}__get-annotated-message`)).toEqual([
      { type: 'text', text: 'Error: Operation failed', annotations: { priority: 1, audience: ['user', 'assistant'] } },
      expect.objectContaining({ type: 'image', annotations: { priority: 0.5, audience: ['user'] } }),
    ]);

    // The scripted provider takes no media: it was told of the image in words, never sent its bytes.
    const [shown] = model.model.toolResults(`${s}__get-tiny-image`);
    expect(shown?.output).toEqual({
      type: 'json',
      value: {
        status: 'ok',
        content: expect.stringMatching(
          /^Here's the image you requested:\n\[image, image\/png, [\d.]+ KB\]\nThe image above is the MCP logo\.$/,
        ),
      },
    });
    expect(JSON.stringify(model.model.prompts)).not.toContain('iVBORw0KGgo');
    const [annotated] = model.model.toolResults(`${s}__get-annotated-message`);
    expect(JSON.stringify(annotated?.output)).toMatch(/\[image, image\/png, [\d.]+ KB, shown to the user\]/);
  });

  it('describes the image in words on the wire to an OpenAI-compatible provider (a local Chat Completions server)', async () => {
    const fake = await startFakeChatCompletions((body) => {
      if (isAfterTool(body)) return completion({ text: 'Seen.' });
      if (lastUserText(body).includes('image'))
        return completion({ toolCalls: [{ name: 'ev__get-tiny-image', args: {} }] });
      return completion({ text: 'Hello.' });
    });
    const settings = testSettings({
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: registry,
    });
    const wired = await startWorker(env, {
      model: createModel({ model: 'openai-compatible:test', baseUrl: fake.baseUrl }),
      settings,
    });
    try {
      const { handle } = await startConversation(env.client, settings.taskQueue, { goalId: 'goal_general' });
      expect((await say(handle, 'show me the image')).reply).toBe('Seen.');
      await handle.signal(endChatSignal);
      const sent = toolResults(fake.requests.at(-1)!.body);
      expect(JSON.parse(sent[0]!.content)).toEqual({
        status: 'ok',
        content: expect.stringMatching(/^Here's the image you requested:\n\[image, image\/png, [\d.]+ KB\]\n/),
      });
      expect(fake.requests.at(-1)!.rawBody).not.toContain('iVBORw0KGgo');
    } finally {
      await wired.stop();
      await fake.close();
    }
  });

  it("lists an endpoint's resources and prompts through the CLI and the API", async () => {
    const listed = await cli(['endpoints', 'ev']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      /^resources:\n {2}demo:\/\/resource\/static\/document\/architecture\.md {2}architecture\.md/m,
    );
    expect(listed.out).toMatch(/^ {2}demo:\/\/resource\/dynamic\/text\/\{resourceId\}/m);
    expect(listed.out).toMatch(/^ {2}ev\/args-prompt city \[state\] — A prompt with two arguments/m);
    expect(await cli(['endpoints', 'nope'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/No MCP server "nope" in the registry \(endpoints: ev, evh, fx\)/),
    });
    // A server with tools alone (our fx demo) says so, and is asked for nothing else.
    expect((await cli(['endpoints', 'fx'])).out).toMatch(/^resources:\n {2}\(fx offers no resources\)$/m);
    expect(await call('POST', '/api/conversations', { prompt: { endpoint: 'fx', name: 'rates' } })).toEqual({
      status: 404,
      body: { error: 'The MCP server "fx" offers no prompts.' },
    });

    const resources = await call('GET', '/api/endpoints/evh/resources');
    expect(resources.status).toBe(200);
    expect(resources.body.resources).toContainEqual(
      expect.objectContaining({ uri: 'demo://resource/static/document/features.md', mimeType: 'text/markdown' }),
    );
    expect(resources.body.templates).toContainEqual(
      expect.objectContaining({ uriTemplate: 'demo://resource/dynamic/blob/{resourceId}' }),
    );
    const prompts = await call('GET', '/api/endpoints/evh/prompts');
    expect(prompts.body.prompts).toContainEqual({
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ],
    });
    const read = await call(
      'GET',
      `/api/endpoints/ev/resource?uri=${encodeURIComponent('demo://resource/dynamic/blob/3')}`,
    );
    // A blob of text/plain is read as text.
    expect(read.body.contents).toEqual([
      expect.objectContaining({ type: 'resource', text: expect.stringMatching(/^Resource 3: This is a base64 blob/) }),
    ]);
    expect((await call('GET', '/api/endpoints/nope/prompts')).status).toBe(404);
  });

  it('attaches a resource to a message (CLI and API): the worker reads it, the model gets it with the words', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: 'goal_general',
    });
    const id = handle.workflowId;
    const uri = 'demo://resource/static/document/architecture.md';
    const said = await cli(['say', id, '--resource', 'ev', uri, 'what', 'does', 'this', 'say?']);
    expect(said).toMatchObject({ code: 0, out: expect.stringContaining('Noted.') });
    const viaApi = await call('POST', `/api/conversations/${id}/messages`, {
      text: 'and this one?',
      resource: { endpoint: 'evh', uri: 'demo://resource/dynamic/text/7' },
    });
    expect(viaApi.status).toBe(200);
    const users = (await history(handle)).flatMap((m) => (m.kind === 'user' && !m.starter ? [m.text] : []));
    expect(users[0]).toMatch(
      /^what does this say\?\n\n\[attached resource demo:\/\/resource\/static\/document\/architecture\.md from ev\]\n\[resource </,
    );
    expect(users[0]).toContain('# Everything Server');
    expect(users[1]).toMatch(
      /^and this one\?\n\n\[attached resource demo:\/\/resource\/dynamic\/text\/7 from evh\]\n.*Resource 7: This is a plaintext resource/s,
    );
    // What the model was sent: the user's message with the resource in it.
    const last = model.model.prompts
      .at(-1)!
      .filter((m) => m.role === 'user')
      .at(-1);
    expect(JSON.stringify(last)).toContain('Resource 7: This is a plaintext resource');
    expect(
      (
        await call('POST', `/api/conversations/${id}/messages`, {
          text: 'x',
          resource: { endpoint: 'ev', uri: 'demo://nope' },
        })
      ).body,
    ).toEqual({
      error: expect.stringMatching(/^ev: MCP error -?\d+: .*demo:\/\/nope/),
    });
    await handle.signal(endChatSignal);
  });

  it("opens a conversation with a server's prompt (CLI and API): its messages first, the agent answers the last", async () => {
    const started = await cli([
      'start',
      '--goal',
      'goal_general',
      '--prompt',
      'ev/args-prompt',
      '--arg',
      'city=Chicago',
      '--arg',
      'state=IL',
      '--json',
    ]);
    expect(started.code).toBe(0);
    const { id, reply } = JSON.parse(started.out) as { id: string; reply: { reply: string } };
    expect(reply.reply).toBe('Noted.');
    const messages = await agents.history(id);
    expect(messages.slice(0, 2)).toEqual([
      { kind: 'note', text: 'Opened with the prompt "args-prompt" of the MCP server "ev".' },
      { kind: 'user', text: "What's weather in Chicago, IL?", promptId: 1 },
    ]);
    expect(messages.some((m) => m.kind === 'user' && m.starter)).toBe(false);

    const viaApi = await call('POST', '/api/conversations', {
      goalId: 'goal_general',
      prompt: { endpoint: 'evh', name: 'resource-prompt', args: { resourceType: 'Text', resourceId: '2' } },
    });
    expect(viaApi.status).toBe(201);
    const opened = await agents.history(viaApi.body.conversationId as string);
    expect(opened[1]).toMatchObject({
      kind: 'user',
      text: expect.stringMatching(
        /^This prompt includes the Text resource with id: 2\. Please analyze the following resource:\n\n\[resource <demo:\/\/resource\/dynamic\/text\/2> \(text\/plain\)\]\nResource 2: /,
      ),
    });
    expect(
      (await call('POST', '/api/conversations', { prompt: { endpoint: 'ev', name: 'no-such-prompt' } })).status,
    ).toBe(404);
    await agents.end(id);
  });
});
