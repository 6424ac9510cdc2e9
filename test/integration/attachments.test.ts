// Files attached to prompts, on a real dev server and worker: a 12-page PDF whose page 7 the agent reads, a
// 50,000-row CSV it filters, each with ReadFile a window at a time; an image sent as an image to a model that takes
// them (MODEL_IMAGES) and described in words to one that does not — checked in the requests a local Chat Completions
// server received. Only the model is fake.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { createModel } from '../../activities/llm/model';
import { openBlobStore, readBlobSettings, type LimitedBlobStore } from '../../blobs';
import { promptUpdate } from '../../core/messages';
import { history, rejection, say, startConversation } from '../helpers/conversation';
import { makeCsv, makePdf, pngHeader } from '../helpers/reader-fixtures';
import {
  completion,
  lastUserText,
  startFakeChatCompletions,
  type ChatRequestBody,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { startApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { runCli } from '../helpers/cli';

const FILE = 'id ([0-9a-f]{64})';

const script: ScriptInput = {
  rules: [
    { user: '^Greet', reply: { text: 'Hi.' } },
    {
      user: `page 7[\\s\\S]*${FILE}`,
      reply: { toolCalls: [{ tool: 'ReadFile', args: { id: '{{1}}', pages: { from: 7, to: 7 } } }] },
    },
    {
      user: `Oslo[\\s\\S]*${FILE}`,
      reply: {
        toolCalls: [
          {
            tool: 'ReadFile',
            args: { id: '{{1}}', where: { column: 'city', op: '=', value: 'Oslo' }, rows: { from: 0, count: 3 } },
          },
        ],
      },
    },
    { afterTool: 'ReadFile', outcome: 'ok', reply: { text: '{{result.matched}}|{{result.text}}' } },
    { afterTool: 'ReadFile', outcome: 'tool_error', reply: { text: 'Could not read: {{outcome.error}}' } },
  ],
};

describe('files attached to prompts', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let store: LimitedBlobStore;
  const blobDir = mkdtempSync(path.join(tmpdir(), 'attachments-'));

  beforeAll(async () => {
    env = await startTemporal();
    store = openBlobStore(readBlobSettings({ BLOB_DIR: blobDir }, blobDir));
    worker = await startWorker(env, {
      script,
      settings: testSettings({ AGENT_GOAL: 'goal_general', BLOB_DIR: blobDir, VALIDATE_PROMPTS: 'false' }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  const start = async () =>
    (await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_general' })).handle;

  it('reads page 7 of a 12-page PDF', async () => {
    const handle = await start();
    const pdf = await store.put(await makePdf(), {
      name: 'report.pdf',
      owner: 'local',
      conversationId: handle.workflowId,
    });
    expect(pdf).toMatchObject({ type: 'application/pdf', name: 'report.pdf', facts: { pages: 12 } });
    const reply = await say(handle, { text: 'what does page 7 say?', attachments: [pdf] });
    expect(reply.reply).toMatch(/Page 7 of the quarterly report\.[\s\S]*The vault code is 4-8-15-16-23-42\./);
    expect(reply.reply).not.toMatch(/Page 6|Page 8/);
    const [user] = (await history(handle)).filter((m) => m.kind === 'user' && !m.starter);
    expect(user).toMatchObject({ kind: 'user', attachments: [{ id: pdf.id, name: 'report.pdf' }] });
  });

  it('filters a 50,000-row CSV and reads the first matches', async () => {
    const handle = await start();
    const csv = await store.put(makeCsv(), { name: 'sales.csv', owner: 'local', conversationId: handle.workflowId });
    expect(csv).toMatchObject({
      type: 'text/csv',
      facts: { rows: 50_000, columns: ['id', 'city', 'amount', 'active', 'zip'] },
    });
    const reply = await say(handle, { text: 'which sales were in Oslo?', attachments: [csv] });
    const [matched, text] = reply.reply.split('|');
    expect(matched).toBe('10000'); // every fifth row
    expect(text).toMatch(/\b3\b[\s\S]*Oslo[\s\S]*\b8\b[\s\S]*Oslo[\s\S]*\b13\b[\s\S]*Oslo/);
  });

  it('through the HTTP API (multipart) and the CLI (--file): page 7 read, the CSV filtered', async () => {
    const agents = new AgentClient(env.client, worker.worker.options.taskQueue, { files: store });
    const api = await startApi({
      agents,
      bus: worker.streamBus,
      defaultGoal: 'goal_general',
      settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
    });
    try {
      const started = await fetch(`${api.url}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ goalId: 'goal_general' }),
      });
      const { conversationId: id } = (await started.json()) as { conversationId: string };
      const form = new FormData();
      form.append('text', 'what does page 7 say?');
      form.append('file', new Blob([await makePdf()]), 'report.pdf');
      const res = await fetch(`${api.url}/api/conversations/${id}/messages`, { method: 'POST', body: form });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { reply: string }).reply).toMatch(/The vault code is 4-8-15-16-23-42\./);

      const csv = path.join(blobDir, 'sales.csv');
      writeFileSync(csv, makeCsv());
      const cli = await runCli(['say', id, '--file', csv, 'which sales were in Oslo?'], {
        TEMPORAL_ADDRESS: env.address,
        TASK_QUEUE: worker.worker.options.taskQueue,
        BLOB_DIR: blobDir,
      });
      expect(cli.err).toBe('');
      expect(cli.out).toContain('10000|rows 0–2 of 10,000 matching city = "Oslo" (of 50,000)');
    } finally {
      await api.close();
    }
  });

  it('refuses a prompt whose attachment is not a stored file, in words', async () => {
    const handle = await start();
    const message = await rejection(
      handle.executeUpdate(promptUpdate, { args: [{ text: 'look', attachments: [{ id: 'nope' } as never] }] }),
    );
    expect(message).toMatch(/Not a stored file: \{"id":"nope"\} \(store it first: POST \/api\/files\)\./);
  });
});

describe('images and the model', () => {
  let env: TestWorkflowEnvironment;
  let model: FakeChatCompletions;
  const workers: Awaited<ReturnType<typeof startWorker>>[] = [];
  const blobDir = mkdtempSync(path.join(tmpdir(), 'attachments-images-'));
  const store = openBlobStore(readBlobSettings({ BLOB_DIR: blobDir }, blobDir));

  beforeAll(async () => {
    env = await startTemporal();
    model = await startFakeChatCompletions(() => completion({ text: 'Seen.' }));
    for (const images of ['on', 'off']) {
      workers.push(
        await startWorker(env, {
          model: createModel({ model: 'openai-compatible:vision-test', baseUrl: model.baseUrl, key: 'k' }),
          settings: testSettings({ BLOB_DIR: blobDir, VALIDATE_PROMPTS: 'false', MODEL_IMAGES: images }),
        }),
      );
    }
  });
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await model?.close();
    await env?.teardown();
  });

  const imageParts = (body: ChatRequestBody) =>
    body.messages.flatMap((m) =>
      m.role === 'user' && Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url') : [],
    );

  it('sends an attached image as an image with MODEL_IMAGES=on, and in words with off', async () => {
    const png = await store.put(pngHeader(640, 480), { name: 'chart.png', owner: 'local' });
    expect(png).toMatchObject({ type: 'image/png', facts: { width: 640, height: 480 } });
    for (const [i, w] of workers.entries()) {
      const { handle } = await startConversation(env.client, w.worker.options.taskQueue, { goalId: 'goal_hr_pto' });
      const before = model.requests.length;
      await say(handle, { text: `describe this chart ${i}`, attachments: [png] });
      const request = model.requests
        .slice(before)
        .find((r) => lastUserText(r.body).includes(`describe this chart ${i}`))!;
      expect(lastUserText(request.body)).toContain(`chart.png (image/png`);
      const parts = imageParts(request.body) as { image_url?: { url: string } }[];
      if (i === 0) expect(parts.map((p) => p.image_url?.url.slice(0, 22))).toEqual(['data:image/png;base64,']);
      else expect(parts).toEqual([]);
    }
  });
});
