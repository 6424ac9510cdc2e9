// Upload to first reply for a ~5 MB PDF, through an API in this process beside its worker (as `npm start` runs them):
// POST /api/files (the raw bytes; the store describes the PDF with the readers and writes it), then the turn that
// carries it (POST …/messages with `files: [id]`, wait=true) to the reply, against the same turn without it, and a
// turn whose model reads page 1 with ReadFile. Each run a new conversation and a new copy of the PDF (new bytes, so
// nothing is found kept already). Before each upload, under the same load: describeFile alone and the store's put.
import { performance } from 'node:perf_hooks';
import { DEFAULT_BODY_LIMIT } from '../api/api-settings';
import { startApi, type RunningApi } from '../api/server';
import { openBlobStore, readBlobSettings, LOCAL_OWNER } from '../blobs';
import { AgentClient } from '../client/agent-client';
import type { AgentReply } from '../core/conversation-types';
import { describeFile } from '../readers';
import { postJson } from './api-stack';
import type { BenchContext } from './context';
import {
  ATTACHED_PROMPT,
  ATTACHED_REPLY,
  blobDirOf,
  createFilesAgent,
  FILES_GOAL,
  READ_PAGE_PROMPT,
  type RequestLog,
} from './files-agent';
import { copyOf, makeBenchPdf } from './files-pdf';
import type { FilesOptions } from './options';
import { runWorkers } from './workers';

/** One turn through the API: its time, the history bytes and model request bytes it added. */
export interface TimedTurn {
  ms: number;
  historyBytes: number;
  requestBytes: number;
}

export interface UploadRun {
  /** describeFile alone, and the store's put in this process (describe + write), each on a copy of its own. */
  describeMs: number;
  putMs: number;
  uploadMs: number;
  attached: TimedTurn;
  plain: TimedTurn;
  readPage: TimedTurn;
}

export interface UploadResults {
  pdf: { bytes: number; pages: number; makeMs: number; type: string; preview: string };
  warmup: UploadRun[];
  runs: UploadRun[];
}

export async function pdfUploads(ctx: BenchContext, dir: string, opts: FilesOptions): Promise<UploadResults> {
  let t = performance.now();
  const pdf = await makeBenchPdf();
  const makeMs = performance.now() - t;
  process.stderr.write(
    `bench (files): a ${(pdf.bytes.length / 1e6).toFixed(1)} MB PDF of ${pdf.pages} pages made in ${makeMs.toFixed(0)} ms\n`,
  );
  const blobDir = blobDirOf(dir, 'upload');
  const store = openBlobStore(readBlobSettings({ BLOB_DIR: blobDir }, blobDir));
  const described = await describeFile(pdf.bytes, 'report.pdf');
  const { agent, requests } = await createFilesAgent(ctx, dir, 'claim', 'upload');
  const running = runWorkers(ctx, [agent.worker], [agent.close], 'the files upload worker');
  const agents = new AgentClient(ctx.client, agent.worker.options.taskQueue, { files: store });
  let api: RunningApi | undefined;
  try {
    api = await startApi({
      agents,
      bus: agent.streamBus,
      settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: DEFAULT_BODY_LIMIT, corsOrigins: [] },
      defaultGoal: FILES_GOAL,
    });
    const all: UploadRun[] = [];
    const total = opts.uploadWarmup + opts.uploads;
    for (let i = 0; i < total; i++) {
      ctx.interrupts.check();
      process.stderr.write(`bench (files): upload ${i + 1} of ${total}${i < opts.uploadWarmup ? ' (warm-up)' : ''}\n`);
      // describeFile and the store's put alone first, on copies of their own: under the same load as the upload.
      t = performance.now();
      await describeFile(copyOf(pdf.bytes, i, `${ctx.runId}-describe`), 'report.pdf');
      const describeMs = performance.now() - t;
      t = performance.now();
      await store.put(copyOf(pdf.bytes, i, `${ctx.runId}-put`), { name: 'report.pdf', owner: LOCAL_OWNER });
      const putMs = performance.now() - t;
      const bytes = copyOf(pdf.bytes, i, `${ctx.runId}-upload`);
      const run = uploadRun(ctx, api.url, agents, requests, `bench-files-upload-${ctx.runId}-${i}`, bytes, i);
      all.push({ describeMs, putMs, ...(await Promise.race([run, running.died])) });
    }
    return {
      pdf: {
        bytes: pdf.bytes.length,
        pages: pdf.pages,
        makeMs,
        type: described.type,
        preview: described.preview.slice(0, 120),
      },
      warmup: all.slice(0, opts.uploadWarmup),
      runs: all.slice(opts.uploadWarmup),
    };
  } finally {
    await api?.close();
    await running.stop();
  }
}

async function uploadRun(
  ctx: BenchContext,
  url: string,
  agents: AgentClient,
  requests: RequestLog,
  id: string,
  bytes: Uint8Array,
  n: number,
): Promise<Omit<UploadRun, 'describeMs' | 'putMs'>> {
  const started = await postJson(`${url}/api/conversations`, { conversationId: id, goalId: FILES_GOAL });
  if (started.status !== 201) throw new Error(`POST /api/conversations: HTTP ${started.status}`);
  let t = performance.now();
  const res = await fetch(`${url}/api/files?conversationId=${encodeURIComponent(id)}&name=report.pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf' },
    body: bytes,
  });
  const uploaded = (await res.json()) as { id?: string; error?: string };
  const uploadMs = performance.now() - t;
  if (res.status !== 201 || !uploaded.id)
    throw new Error(`POST /api/files: HTTP ${res.status} ${JSON.stringify(uploaded)}`);
  const fileId = uploaded.id;

  const handle = ctx.client.workflow.getHandle(id);
  const size = async () => Number((await handle.describe()).raw.workflowExecutionInfo?.historySizeBytes ?? 0);
  const turn = async (text: string, files: string[], expect: (reply: string) => boolean): Promise<TimedTurn> => {
    const before = await size();
    const first = requests.bytes.length;
    t = performance.now();
    const answer = await postJson(`${url}/api/conversations/${encodeURIComponent(id)}/messages`, {
      text,
      ...(files.length ? { files } : {}),
    });
    const ms = performance.now() - t;
    const reply = (answer.body as AgentReply | null)?.reply ?? '';
    if (answer.status !== 200 || !expect(reply))
      throw new Error(`${text}: HTTP ${answer.status}, unexpected reply ${JSON.stringify(answer.body)}`);
    return { ms, historyBytes: (await size()) - before, requestBytes: requests.since(first) };
  };
  const same = (reply: string) => reply === ATTACHED_REPLY;
  // Which of the two comes first alternates, so neither always meets a conversation one turn longer.
  let attached: TimedTurn;
  let plain: TimedTurn;
  if (n % 2 === 0) {
    attached = await turn(ATTACHED_PROMPT, [fileId], same);
    plain = await turn(ATTACHED_PROMPT, [], same);
  } else {
    plain = await turn(ATTACHED_PROMPT, [], same);
    attached = await turn(ATTACHED_PROMPT, [fileId], same);
  }
  const readPage = await turn(READ_PAGE_PROMPT, [fileId], (r) => r.startsWith('Found:') && r.includes('Page 1 of'));
  await agents.end(id).catch(() => undefined);
  return { uploadMs, attached, plain, readPage };
}
