// SearchTools on a real dev server and worker, with a real MCP server of 504 tools (testkit/toolbox-server.ts)
// behind goal_general, and the model reached over HTTP (a local Chat Completions server): the request carries the
// builtins and SearchTools instead of 504 schemas, the model finds the tool and calls it, and the same conversation
// with the full list (TOOL_SEARCH_THRESHOLD=0) shows what each request would have weighed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import { endChatSignal } from '../../core/messages';
import { TOOLBOX_TOOLS } from '../../testkit/toolbox';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import {
  completion,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  toolResults,
  type ChatRequestBody,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const TSX = ['--require', 'tsx/cjs'];
const REQUEST = 'schedule a meeting with the design team';
const WANTED = 'toolbox__calendar_create_event';

/** A model that searches when it is offered SearchTools, calls the best match (or the tool, when it sees them all), and reports. */
function model(body: ChatRequestBody) {
  const offered = new Set(body.tools?.map((t) => t.function.name) ?? []);
  if (isAfterTool(body)) {
    const last = JSON.parse(toolResults(body).at(-1)!.content) as {
      result: { matches?: { name: string }[]; ran?: string };
    };
    if (last.result.matches)
      return completion({
        toolCalls: [{ name: last.result.matches[0]!.name, args: { title: 'Design sync', details: 'Tuesday 10:00' } }],
      });
    return completion({ text: `Done: ${JSON.stringify(last.result)}` });
  }
  if (lastUserText(body).startsWith('Greet the user')) return completion({ text: 'Hello.' });
  if (offered.has('SearchTools'))
    return completion({ toolCalls: [{ name: 'SearchTools', args: { query: lastUserText(body) } }] });
  return completion({ toolCalls: [{ name: WANTED, args: { title: 'Design sync', details: 'Tuesday 10:00' } }] });
}

describe('SearchTools over a catalog of 504 MCP tools', () => {
  let env: TestWorkflowEnvironment;
  let server: FakeChatCompletions;
  let searching: Awaited<ReturnType<typeof startWorker>>;
  let full: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    const registry = path.join(mkdtempSync(path.join(tmpdir(), 'toolbox-')), 'mcp_endpoints.json');
    writeFileSync(
      registry,
      JSON.stringify({
        mcpServers: {
          toolbox: {
            command: process.execPath,
            args: [...TSX, 'testkit/toolbox-server.ts'],
            timeoutMs: 20_000,
          },
        },
      }),
    );
    server = await startFakeChatCompletions(model);
    env = await startTemporal();
    const llm = () => createModel({ model: 'openai-compatible:test-model', baseUrl: server.baseUrl, key: 'sk-test' });
    const settings = (extra: Record<string, string>) =>
      testSettings({
        AGENT_GOAL: 'goal_general',
        VALIDATE_PROMPTS: 'false',
        SHOW_CONFIRM: 'false',
        MCP_ENDPOINTS_FILE: registry,
        ...extra,
      });
    [searching, full] = await Promise.all([
      startWorker(env, { model: llm(), settings: settings({}) }),
      startWorker(env, { model: llm(), settings: settings({ TOOL_SEARCH_THRESHOLD: '0' }) }),
    ]);
  });
  afterAll(async () => {
    await searching?.stop();
    await full?.stop();
    await env?.teardown();
    await server?.close();
  });

  /** One conversation on `worker`: the request, the tool outcomes, and the bytes of each model request of the turn. */
  async function turn(worker: typeof searching) {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_general' });
    server.reset();
    const reply = await say(handle, REQUEST);
    const requests = server.requests.map((r) => ({
      bytes: Buffer.byteLength(r.rawBody),
      tools: r.body.tools?.length ?? 0,
    }));
    const outcomes = toolOutcomes(await history(handle));
    await handle.signal(endChatSignal);
    return { reply, requests, outcomes };
  }

  it('offers SearchTools instead of 504 schemas; the model finds the tool, calls it, and each request is under 10% of the full list', async () => {
    const s = await turn(searching);
    expect(s.outcomes.map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['SearchTools', 'ok'],
      [WANTED, 'ok'],
    ]);
    expect(s.reply.reply).toContain('"ran":"calendar_create_event"');
    // Searching step: the builtins (CompleteGoal, Remember, Forget) and SearchTools; the next step adds what was found
    // (5 matches).
    expect(s.requests.map((r) => r.tools)).toEqual([4, 9, 9]);

    const f = await turn(full);
    expect(f.outcomes.map((m) => m.call.tool)).toEqual([WANTED]);
    expect(f.requests[0]!.tools).toBe(TOOLBOX_TOOLS.length + 3);
    const perStep = (r: { bytes: number }[]) => r.reduce((a, x) => a + x.bytes, 0) / r.length;
    const ratio = perStep(s.requests) / perStep(f.requests);
    expect(ratio).toBeLessThanOrEqual(0.1);
  });
});
