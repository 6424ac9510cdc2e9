// Files through the HTTP API against a real dev server and worker, over real HTTP, with API keys: uploads raw and
// multipart, metadata and content (ranges too), the type found in the content (a PDF named .csv is a PDF), limits
// refused with 413 in words naming the setting, another owner's file and an unknown one answered 404, and messages
// that attach files (JSON naming uploaded ids, and multipart) reaching the conversation as references; the CLI's
// `agent say --file` the same way, and `agent prune` deleting the files only the pruned conversation held.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApiKeys } from '../../api/auth';
import { startApi, type RunningApi } from '../../api/server';
import { openBlobStore } from '../../blobs';
import { AgentClient } from '../../client/agent-client';
import type { BlobRef } from '../../core/blobs';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { waitUntil } from '../../testkit/wait-until';
import { runCli } from '../helpers/cli';
import { makeCsv, makePdf, makeZipBomb } from '../helpers/reader-fixtures';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef0';
const KB = 1024;

describe('file routes', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let api: RunningApi;
  let agents: AgentClient;
  let conversationId: string;
  let cliEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    env = await startTemporal();
    // 100 KB a file, 300 KB a conversation: small enough to go over here.
    const settings = testSettings({ VALIDATE_PROMPTS: 'false', FILE_MAX_MB: '0.1', CONVERSATION_FILES_MAX_MB: '0.3' });
    worker = await startWorker(env, {
      settings,
      script: {
        rules: [
          { user: '^Greet the user', reply: { text: 'Hi! Send me files.' } },
          { user: 'summarise', reply: { text: 'I have your files.' } },
        ],
      },
    });
    const blobs = settings.files.blobs.place;
    cliEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: settings.taskQueue,
      ...(blobs.kind === 'fs' ? { BLOB_DIR: blobs.dir } : {}),
      FILE_MAX_MB: '0.1',
      CONVERSATION_FILES_MAX_MB: '0.3',
    };
    // The API keeps files where the worker reads them: the same settings, the same store.
    agents = new AgentClient(env.client, settings.taskQueue, { files: openBlobStore(settings.files.blobs) });
    api = await startApi({
      agents,
      bus: worker.streamBus,
      defaultGoal: 'goal_hr_pto',
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: new ApiKeys([`alice=${ALICE}`, `bob=${BOB}`], []),
        bodyLimitBytes: 16 * KB,
        corsOrigins: [],
      },
    });
    const started = await call('POST', '/api/conversations', ALICE, JSON.stringify({}), 'application/json');
    conversationId = (started.body as { conversationId: string }).conversationId;
  });
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await env?.teardown();
  });

  async function call(method: string, path: string, key: string, body?: RequestInit['body'], type?: string, more = {}) {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(type ? { 'content-type': type } : {}), ...more },
      body,
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const json = res.headers.get('content-type')?.startsWith('application/json');
    return { status: res.status, headers: res.headers, bytes, body: json ? JSON.parse(bytes.toString()) : null };
  }
  const upload = (bytes: Uint8Array, name: string, key = ALICE, query = '') =>
    call('POST', `/api/files?name=${encodeURIComponent(name)}${query}`, key, bytes, 'application/octet-stream');
  const multipart = (bytes: Uint8Array, name: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return form;
  };

  it('states its limits, so a client can refuse a file before sending it', async () => {
    const { status, body } = await call('GET', '/api/files/limits', ALICE);
    expect({ status, body }).toEqual({
      status: 200,
      body: {
        fileMaxBytes: Math.round(0.1 * 1024 * 1024),
        conversationMaxBytes: Math.round(0.3 * 1024 * 1024),
        maxFiles: 10,
      },
    });
  });

  it('stores a raw upload, answers its metadata to its owner, and its bytes whole or by range', async () => {
    const csv = makeCsv(500);
    const up = await upload(csv, 'people.csv');
    expect(up.status).toBe(201);
    const ref = up.body as BlobRef;
    expect(ref).toMatchObject({ size: csv.length, type: 'text/csv', name: 'people.csv', facts: { rows: 500 } });
    expect(ref.id).toMatch(/^[0-9a-f]{64}$/);
    expect((await call('GET', `/api/files/${ref.id}`, ALICE)).body).toEqual(ref);

    const whole = await call('GET', `/api/files/${ref.id}/content`, ALICE);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('text/csv');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.compare(whole.bytes, Buffer.from(csv))).toBe(0);
    const part = await call('GET', `/api/files/${ref.id}/content`, ALICE, undefined, undefined, { range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-9/${csv.length}`);
    expect(part.bytes.toString()).toBe(Buffer.from(csv).subarray(0, 10).toString());
    const tail = await call('GET', `/api/files/${ref.id}/content`, ALICE, undefined, undefined, { range: 'bytes=-5' });
    expect(tail.bytes.toString()).toBe(Buffer.from(csv).subarray(-5).toString());
    const outside = await call('GET', `/api/files/${ref.id}/content`, ALICE, undefined, undefined, {
      range: `bytes=${csv.length}-`,
    });
    expect(outside.status).toBe(416);
  });

  it('stores a multipart upload under the name it came with, over the API body limit but within FILE_MAX_MB', async () => {
    const csv = makeCsv(1_000); // ~40 KB: over API_BODY_LIMIT (16 KB here), under FILE_MAX_MB (100 KB)
    expect(csv.length).toBeGreaterThan(16 * KB);
    const up = await call('POST', '/api/files', ALICE, multipart(csv, 'export.csv'));
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ name: 'export.csv', type: 'text/csv', size: csv.length });
  });

  it('finds the type in the content: a PDF named .csv is stored as a PDF', async () => {
    const pdf = await makePdf(3);
    const up = await upload(pdf, 'totally-a-table.csv');
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ type: 'application/pdf', name: 'totally-a-table.csv', facts: { pages: 3 } });
    const content = await call('GET', `/api/files/${(up.body as BlobRef).id}/content`, ALICE);
    expect(content.headers.get('content-type')).toBe('application/pdf');
  });

  it('refuses a file over FILE_MAX_MB with 413 in words naming the setting, raw and multipart alike', async () => {
    const big = new Uint8Array(150 * KB).fill(65);
    const raw = await upload(big, 'big.txt');
    expect(raw.status).toBe(413);
    expect(raw.body.error).toMatch(/over the 0\.1 MB a file may be \(FILE_MAX_MB\)/);
    const form = await call('POST', '/api/files', ALICE, multipart(big, 'big.txt'));
    expect(form.status).toBe(413);
    expect(form.body.error).toMatch(/FILE_MAX_MB/);
    // Under the body limit with its slack, still over the file limit: refused by the store, in the same words.
    const justOver = await upload(new Uint8Array(0.1 * 1024 * KB + 10).fill(66), 'just-over.txt');
    expect(justOver).toMatchObject({ status: 413 });
    expect(justOver.body.error).toBe('just-over.txt is 102 KB, over the 0.1 MB a file may be (FILE_MAX_MB).');
  });

  it('refuses what the readers will not read with 422, in their words', async () => {
    const bomb = await upload(makeZipBomb(50 * 1024 * 1024), 'sheet.xlsx');
    expect(bomb.status).toBe(422);
    expect(bomb.body.error).toMatch(/zip|inflate|ratio/i);
  });

  it("answers another owner's file, an unknown one and a malformed id as unknown", async () => {
    const { body: ref } = await upload(Buffer.from('alice only\n'), 'secret.txt');
    for (const path of [`/api/files/${ref.id}`, `/api/files/${ref.id}/content`]) {
      expect(await call('GET', path, BOB)).toMatchObject({ status: 404, body: { error: `No file ${ref.id}.` } });
    }
    const unknown = 'f'.repeat(64);
    expect(await call('GET', `/api/files/${unknown}`, ALICE)).toMatchObject({
      status: 404,
      body: { error: `No file ${unknown}.` },
    });
    expect((await call('GET', '/api/files/not-an-id', ALICE)).status).toBe(400);
    // The same content uploaded by bob is his too (stored once), without changing what alice sees.
    expect((await upload(Buffer.from('alice only\n'), 'mine.txt', BOB)).status).toBe(201);
    expect((await call('GET', `/api/files/${ref.id}`, BOB)).status).toBe(200);
  });

  it("holds an upload for a conversation of the caller's only, within CONVERSATION_FILES_MAX_MB", async () => {
    const q = `&conversationId=${conversationId}`;
    expect((await upload(Buffer.from('for the chat\n'), 'chat.txt', BOB, q)).status).toBe(404);
    const fill = (n: number) => new Uint8Array(90 * KB).fill(n);
    for (const n of [1, 2, 3]) expect((await upload(fill(n), `part${n}.txt`, ALICE, q)).status).toBe(201);
    const over = await upload(fill(4), 'part4.txt', ALICE, q);
    expect(over.status).toBe(413);
    expect(over.body.error).toMatch(/CONVERSATION_FILES_MAX_MB/);
    expect(await agents.files.release(conversationId)).toBe(3);
  });

  it('attaches files to a message by id (JSON) and as multipart; the conversation holds them', async () => {
    const { body: csv } = await upload(makeCsv(20), 'small.csv');
    const json = await call(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      ALICE,
      JSON.stringify({ text: 'summarise this', files: [csv.id] }),
      'application/json',
    );
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ reply: 'I have your files.' });

    const form = multipart(Buffer.from('# Notes\n\nSome words.\n'), 'notes.md', { text: 'summarise these too' });
    const sent = await call('POST', `/api/conversations/${conversationId}/messages`, ALICE, form);
    expect(sent.status).toBe(200);

    const { body: convo } = await call('GET', `/api/conversations/${conversationId}`, ALICE);
    const attached = (convo.messages as { message: { kind: string; attachments?: BlobRef[] } }[])
      .filter(({ message }) => message.kind === 'user' && message.attachments?.length)
      .map(({ message }) => message.attachments!.map((a) => `${a.name} ${a.type}`));
    expect(attached).toEqual([['small.csv text/csv'], ['notes.md text/markdown']]);
    // bob may not attach alice's file to anything, nor send to her conversation.
    const bobs = await call(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      BOB,
      JSON.stringify({ text: 'summarise', files: [csv.id] }),
      'application/json',
    );
    expect(bobs.status).toBe(404);
    expect((await agents.files.stat(csv.id))?.owners).toEqual(['alice']);
    expect(await agents.files.release(conversationId)).toBe(2);
  });

  it('agent say --file stores each file for the conversation and sends them; agent prune deletes them after', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'say-files-'));
    const pdf = path.join(dir, 'report.pdf');
    const csv = path.join(dir, 'b.csv');
    writeFileSync(pdf, await makePdf(2));
    writeFileSync(csv, makeCsv(30));
    const { id } = await agents.start('goal_hr_pto', `files-cli-${Date.now()}`);
    const said = await runCli(['say', id, '--file', pdf, '--file', csv, 'summarise this', '--json'], cliEnv);
    expect({ ...said, out: said.code ? said.out : '' }).toMatchObject({ code: 0, err: '', out: '' });
    expect(JSON.parse(said.out)).toMatchObject({ reply: 'I have your files.' });
    const user = (await agents.history(id)).filter((m) => m.kind === 'user').at(-1) as { attachments?: BlobRef[] };
    expect(user.attachments?.map((a) => `${a.name} ${a.type}`)).toEqual([
      'report.pdf application/pdf',
      'b.csv text/csv',
    ]);
    const [pdfRef] = user.attachments!;
    expect((await agents.files.stat(pdfRef!.id))?.owners).toEqual(['local']);

    const missing = await runCli(['say', id, '--file', path.join(dir, 'nope.pdf'), 'summarise'], cliEnv);
    expect(missing).toMatchObject({ code: 1 });
    expect(missing.err).toMatch(/Cannot read .*nope\.pdf: ENOENT/);
    const big = path.join(dir, 'big.txt');
    writeFileSync(big, Buffer.alloc(200 * KB, 'x'));
    const tooBig = await runCli(['say', id, '--file', big, 'summarise'], cliEnv);
    expect(tooBig).toMatchObject({ code: 1 });
    expect(tooBig.err).toMatch(/big\.txt is 200 KB, over the 0\.1 MB a file may be \(FILE_MAX_MB\)/);

    await agents.end(id);
    const prune = async () =>
      JSON.parse((await runCli(['prune', '--older-than', '0s', '--json'], cliEnv)).out) as {
        pruned: { id: string }[];
        filesDeleted: number;
      };
    let pruned = await prune();
    await waitUntil(async () => pruned.pruned.some((p) => p.id === id) || !!(pruned = await prune()).pruned.length);
    expect(pruned.pruned.map((p) => p.id)).toContain(id);
    expect(pruned.filesDeleted).toBeGreaterThanOrEqual(2);
    expect(await agents.files.stat(pdfRef!.id)).toBeNull();
  });
});
