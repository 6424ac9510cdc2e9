// The claim check on a real dev server and worker: a 3 MB MCP result and a 3 MB native result are kept whole in the
// blob store, history carries their reference and a preview, and the agent reads the part it needs with ReadFile
// (a JSONPath into the JSON) — nothing cut off, and the history's bytes per turn stay flat with megabytes in play.
// Then two worker processes share an S3-compatible store (moto's server): a result one stored is read by the other
// after the first is SIGKILLed, and by a third after the second is. Only the model is scripted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { defineTool } from '../../tools/define-tool';
import { loadNativeTools, ToolRegistry } from '../../tools/tool-registry';
import type { BlobRef } from '../../core/blobs';
import { history, say, startConversation, startConversationForFaults } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { startS3, type RunningS3 } from '../../testkit/s3-server';
import { openBlobStore } from '../../blobs';
import type { WorkerSettings } from '../../worker/worker-settings';
import { BIG_ITEMS, bigItem } from '../fixtures/mcp/big-server';

const TSX = ['--require', 'tsx/cjs'];
const dir = mkdtempSync(path.join(tmpdir(), 'claim-check-'));
const ROWS = 42_000;

/** A native tool whose answer is ~3 MB: rows of codes. */
const report = defineTool({
  name: 'Report',
  description: 'The whole sales report.',
  category: 'test',
  readOnly: true,
  input: z.object({}),
  async run() {
    return {
      rows: Array.from({ length: ROWS }, (_, i) => ({ n: i, code: `C${(i * 31) % 99991}`, pad: 'y'.repeat(40) })),
    };
  },
});

const goal = {
  id: 'goal_big_data',
  category: 'test',
  agentName: 'Big data',
  agentFriendlyDescription: 'Reads big results.',
  description: 'Reads big results a part at a time.',
  starterPrompt: 'Greet the user.',
  tools: ['Report'],
  mcp: { servers: ['big'] },
};

/** The same agent without the test's own native tool, for a worker process (which has the shipped tools only). */
const processGoal = { ...goal, id: 'goal_big_listing', tools: [] };

const script: ScriptInput = {
  rules: [
    { user: '^Greet', reply: { text: 'Hi.' } },
    { user: 'listing', reply: { toolCalls: [{ tool: 'big__listing', args: {} }] } },
    {
      afterTool: 'big__listing',
      outcome: 'ok',
      reply: { toolCalls: [{ tool: 'ReadFile', args: { id: '{{result.id}}', jsonPath: '$.items[25000].name' } }] },
    },
    { goal: goal.id, user: 'report', reply: { toolCalls: [{ tool: 'Report', args: {} }] } },
    {
      goal: goal.id,
      afterTool: 'Report',
      outcome: 'ok',
      reply: { toolCalls: [{ tool: 'ReadFile', args: { id: '{{result.id}}', jsonPath: '$.rows[41999].code' } }] },
    },
    {
      user: 'again ([0-9a-f]{64})',
      reply: { toolCalls: [{ tool: 'ReadFile', args: { id: '{{1}}', jsonPath: '$.items[7].name' } }] },
    },
    { afterTool: 'ReadFile', outcome: 'ok', reply: { text: 'Found: {{result.text}}' } },
    { afterTool: 'ReadFile', outcome: 'tool_error', reply: { text: 'Could not read: {{outcome.error}}' } },
  ],
};

function writeRegistry(): string {
  const file = path.join(dir, 'mcp.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        big: { command: process.execPath, args: [...TSX, 'test/fixtures/mcp/big-server.ts'], timeoutMs: 60_000 },
      },
    }),
  );
  return file;
}

/** The history's size in bytes after each reply: what each turn added. */
async function historyBytes(handle: WorkflowHandle): Promise<number> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.reduce((n, e) => n + JSON.stringify(e).length, 0);
}

const registry = writeRegistry();
writeFileSync(path.join(dir, `${goal.id}.json`), JSON.stringify(goal));
const processGoals = mkdtempSync(path.join(tmpdir(), 'claim-check-goals-'));
writeFileSync(path.join(processGoals, `${processGoal.id}.json`), JSON.stringify(processGoal));

describe('the claim check', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let settings: WorkerSettings;

  beforeAll(async () => {
    env = await startTemporal();
    worker = await startWorker(env, {
      script,
      tools: new ToolRegistry([...loadNativeTools().all(), report]),
      settings: (settings = testSettings({
        AGENT_GOAL: goal.id,
        GOALS_DIR: dir,
        MCP_ENDPOINTS_FILE: registry,
        VALIDATE_PROMPTS: 'false',
        SHOW_CONFIRM: 'false',
      })),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  it('keeps 3 MB MCP and native results whole, reads the part asked for, and history stays flat', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: goal.id,
      owner: 'alice',
    });
    const sizes = [await historyBytes(handle)];
    const replies: string[] = [];
    for (const prompt of ['listing', 'report', 'listing', 'report']) {
      const r = await say(handle, prompt);
      replies.push(r.reply);
      sizes.push(await historyBytes(handle));
    }
    // A JSONPath answers with its matches.
    const found = (value: string) => `Found: ${JSON.stringify([value], null, 2)}`;
    const name = found(bigItem(25000).name);
    const code = found(`C${(41999 * 31) % 99991}`);
    expect(replies).toEqual([name, code, name, code]);
    // In history: the reference and a preview, not the megabytes.
    const stored = (await history(handle)).flatMap((m) =>
      m.kind === 'tool' && m.outcome.status === 'ok' && m.outcome.stored ? [m.outcome.stored] : [],
    );
    expect(stored.map((r) => [r.name, r.type])).toEqual([
      ['big__listing result', 'application/json'],
      ['Report result', 'application/json'],
      ['big__listing result', 'application/json'],
      ['Report result', 'application/json'],
    ]);
    expect(stored[0]!.size).toBeGreaterThan(BIG_ITEMS * 90);
    expect(stored[0]!.id).toBe(stored[2]!.id); // the same content, stored once
    // Held for the conversation's owner (the API shows each owner theirs), asked of the conversation by the activity.
    const store = openBlobStore(settings.files.blobs);
    for (const ref of stored) expect((await store.stat(ref.id))?.owners).toEqual(['alice']);
    const perTurn = sizes.slice(1).map((s, i) => s - sizes[i]!);
    expect(Math.max(...perTurn)).toBeLessThan(60_000);
    expect(perTurn[3]!).toBeLessThanOrEqual(perTurn[1]! * 1.5);
  });

  it('refuses an id the conversation was never given, in words', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: goal.id });
    await say(handle, 'listing');
    const reply = await say(handle, `again ${'a'.repeat(64)}`);
    expect(reply.reply).toMatch(
      new RegExp(
        `^Could not read: No file a{64} in this conversation; its files: [0-9a-f]{64} \\(big__listing result\\)\\.$`,
      ),
    );
  });
});

describe('the claim check on an S3-compatible store, two workers, one SIGKILLed', () => {
  let env: TestWorkflowEnvironment;
  let s3: RunningS3;
  const running: WorkerProcess[] = [];
  afterAll(async () => {
    for (const w of running) await w.kill();
    await s3?.stop();
    await env?.teardown();
  });

  it('a result stored by one worker is read by the other, after the first is killed', async () => {
    [env, s3] = await Promise.all([startTemporal(), startS3(['conversation-files'])]);
    const taskQueue = `claim-check-${process.pid}`;
    writeFileSync(path.join(dir, 'script.json'), JSON.stringify(script));
    const settings = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
      AGENT_GOAL: processGoal.id,
      GOALS_DIR: processGoals,
      LLM_MODEL: `scripted:${path.join(dir, 'script.json')}`,
      VALIDATE_PROMPTS: 'false',
      SHOW_CONFIRM: 'false',
      MCP_ENDPOINTS_FILE: registry,
      ...s3.env('conversation-files'),
    };
    // Two workers on one queue, each with a data folder of its own: only the bucket is shared.
    const start = (n: number) => startWorkerProcess({ ...settings, DATA_DIR: path.join(dir, `data-${n}`) });
    running.push(...(await Promise.all([start(1), start(2)])));
    const { handle } = await startConversationForFaults(env.client, taskQueue, { goalId: processGoal.id });
    expect((await say(handle, 'listing')).reply).toBe(`Found: ${JSON.stringify([bigItem(25000).name], null, 2)}`);
    const ref = (await history(handle)).flatMap((m) =>
      m.kind === 'tool' && m.outcome.status === 'ok' && m.outcome.stored ? [m.outcome.stored] : [],
    )[0] as BlobRef;
    // Whichever worker stored it, the other reads it: kill the first, then the second, starting a third.
    await running[0]!.kill();
    expect((await say(handle, `again ${ref.id}`)).reply).toBe(`Found: ${JSON.stringify([bigItem(7).name], null, 2)}`);
    await running[1]!.kill();
    running.push(await start(3));
    expect((await say(handle, `again ${ref.id}`)).reply).toBe(`Found: ${JSON.stringify([bigItem(7).name], null, 2)}`);
  });
});
