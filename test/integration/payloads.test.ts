// No payload can wedge a conversation, and history grows flat: replies of 1.2 MB (twice) and 3 MB, and a 3 MB MCP
// tool result, are cut to their caps with a visible note and the conversation goes on at once; LLM activities get
// the transcript by reference, so a text turn adds about as many history bytes at turn 40 as at turn 2.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { serveMcpOverHttp, type HttpMcpServer } from '../../demo/serve';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { DEFAULT_LIMITS } from '../../activities/limits';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const MB = 1_000_000;
const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi.' } },
    { user: 'long answer', reply: { text: 'a'.repeat(1.2 * MB) } },
    { user: 'huge answer', reply: { text: 'b'.repeat(3 * MB) } },
    { user: 'dump', reply: { toolCalls: [{ tool: 'bulk__dump', args: {} }] } },
    { afterTool: 'bulk__dump', outcome: 'ok', reply: { text: 'Kept as {{result.file}}.' } },
    { user: 'turn', reply: { text: 'A short answer.' } },
  ],
};

describe('payload caps and flat history', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bulk: HttpMcpServer;
  const dir = mkdtempSync(path.join(tmpdir(), 'payloads-'));

  beforeAll(async () => {
    env = await startTemporal();
    bulk = await serveMcpOverHttp(() => {
      const server = new McpServer({ name: 'bulk', version: '1.0.0' });
      server.registerTool(
        'dump',
        { description: 'Returns 3 MB.', inputSchema: {}, annotations: { readOnlyHint: true } },
        async () => ({
          content: [{ type: 'text' as const, text: JSON.stringify({ rows: 'r'.repeat(3 * MB) }) }],
        }),
      );
      return server;
    }, 0);
    writeFileSync(
      path.join(dir, 'mcp.json'),
      JSON.stringify({ mcpServers: { bulk: { url: bulk.url, requireApproval: 'never' } } }),
    );
    mkdirSync(path.join(dir, 'goals'));
    writeFileSync(
      path.join(dir, 'goals', 'bulk.json'),
      JSON.stringify({
        id: 'goal_bulk',
        category: 'data',
        agentName: 'Bulk',
        agentFriendlyDescription: 'Dumps.',
        description: 'Dump.',
        starterPrompt: 'Greet the user.',
        mcp: { servers: ['bulk'] },
      }),
    );
    const settings = testSettings({
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: path.join(dir, 'mcp.json'),
      GOALS_DIR: path.join(dir, 'goals'),
    });
    worker = await startWorker(env, { script, settings });
  });
  afterAll(async () => {
    await worker?.stop();
    await bulk?.close();
    await env?.teardown();
  });

  const start = (goalId = 'goal_hr_pto') => startConversation(env.client, worker.worker.options.taskQueue, { goalId });
  const historyBytes = async (handle: WorkflowHandle) =>
    Number((await handle.describe()).raw.workflowExecutionInfo?.historySizeBytes ?? 0);

  it('two 1.2 MB replies and a 3 MB one are kept whole as files, their start in history, and the conversation goes on', async () => {
    const { handle } = await start();
    for (const prompt of ['long answer', 'long answer again', 'huge answer']) {
      const began = Date.now();
      const { reply } = await say(handle, prompt);
      expect(reply.startsWith(prompt.startsWith('huge') ? 'bbb' : 'aaa')).toBe(true);
      expect(reply).toMatch(
        /\n\[… the whole reply, [\d,]+ characters, is kept as file [0-9a-f]{64}: read on with ReadFile\.\]$/,
      );
      expect(reply.length).toBeLessThan(DEFAULT_LIMITS.maxReplyChars + 200);
      // Answered on the first attempt: no payload-too-large retries.
      expect(Date.now() - began).toBeLessThan(10_000);
    }
    expect((await say(handle, 'turn')).reply).toBe('A short answer.');
    expect(await historyBytes(handle)).toBeLessThan(1 * MB);
  });

  it('a 3 MB MCP tool result reaches the LLM as a stored file: its reference and a preview', async () => {
    const { handle } = await start('goal_bulk');
    expect((await say(handle, 'dump it')).reply).toMatch(
      /^Kept as bulk__dump result \(application\/json, \d\.\d MB\)\.$/,
    );
    const [outcome] = toolOutcomes(await history(handle), 'bulk__dump');
    expect(outcome?.outcome).toMatchObject({
      status: 'ok',
      result: { preview: expect.any(String), note: expect.stringMatching(/ReadFile/) },
      stored: { name: 'bulk__dump result', type: 'application/json' },
    });
    expect(await historyBytes(handle)).toBeLessThan(1 * MB);
  });

  it('a text turn adds as many history bytes at turn 40 as at turn 2 (the transcript is not resent)', async () => {
    const { handle } = await start();
    const added: number[] = [];
    let before = await historyBytes(handle);
    for (let turn = 1; turn <= 40; turn++) {
      await say(handle, `turn ${turn}`);
      const after = await historyBytes(handle);
      added.push(after - before);
      before = after;
    }
    expect(added[39]!).toBeLessThanOrEqual(1.5 * added[1]!);
  });
});
