// CreateTool at the worst moment: the tool file is written, the worker's report of it never reaches Temporal, and the
// worker process is SIGKILLed. The retry on a new worker finds its own file (same conversation, same call) and
// answers with it: one file, one version, one answer, and the conversation goes on to call the tool. Real dev
// server, real worker processes, a gRPC proxy holding the activity's completion.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { confirmSignal } from '../../core/messages';
import { madeToolScript } from '../fixtures/made-tools';
import {
  history,
  say,
  toolOutcomes,
  waitForUser,
  startedAttempts,
  startConversationForFaults,
} from '../helpers/conversation';
import { GrpcProxy } from '../../testkit/grpc-proxy';
import { startTemporal } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

describe('CreateTool: the worker dies after writing the tool, before Temporal hears of it', () => {
  let env: TestWorkflowEnvironment;
  let proxy: GrpcProxy;
  let workerEnv: Record<string, string>;
  let toolsDir: string;
  const running: WorkerProcess[] = [];

  beforeAll(async () => {
    env = await startTemporal();
    proxy = await GrpcProxy.start(env.address);
    const dir = mkdtempSync(path.join(tmpdir(), 'create-tool-faults-'));
    toolsDir = path.join(dir, 'tools');
    mkdirSync(toolsDir);
    writeFileSync(path.join(dir, 'script.json'), JSON.stringify(madeToolScript));
    workerEnv = {
      TEMPORAL_ADDRESS: proxy.address,
      TASK_QUEUE: `create-tool-faults-${process.pid}`,
      AGENT_GOAL: 'goal_agent_builder',
      DATA_DIR: dir,
      GOALS_DIR: path.join(dir, 'goals'),
      TOOLS_DIR: toolsDir,
      LLM_MODEL: `scripted:${path.join(dir, 'script.json')}`,
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: path.join(dir, 'none.json'),
    };
  });
  afterEach(() => proxy.release());
  afterAll(async () => {
    for (const w of running) await w.kill();
    await proxy?.close();
    await env?.teardown();
  });

  const worker = async () => {
    const w = await startWorkerProcess(workerEnv);
    running.push(w);
    return w;
  };

  it('writes one file, one version, and answers once', async () => {
    const first = await worker();
    const { handle } = await startConversationForFaults(env.client, workerEnv.TASK_QUEUE!, {
      goalId: 'goal_agent_builder',
    });
    const asked = await say(handle, 'I need to extract the URLs from texts');
    expect(asked.pendingToolCall?.tool).toBe('CreateTool');

    const reported = proxy.hold('RespondActivityTaskCompleted', 'request');
    await handle.signal(confirmSignal, { approve: true });
    await reported;
    // The file is on disk; Temporal does not know.
    const file = path.join(toolsDir, 'extract_urls.v1.json');
    const written = readFileSync(file, 'utf8');
    await first.kill();
    proxy.release();
    await worker();

    const reply = await waitForUser(handle, 60_000);
    expect(reply?.reply).toBe('extract_urls works: 3 URLs in the sample. Shall I make an agent that uses it?');
    expect(readdirSync(toolsDir).filter((f) => !f.startsWith('.'))).toEqual(['extract_urls.v1.json']);
    expect(readFileSync(file, 'utf8')).toBe(written); // the retry found its own file and wrote nothing
    expect(toolOutcomes(await history(handle), 'CreateTool')).toMatchObject([
      { outcome: { status: 'ok', result: { created: 'extract_urls', version: 1 } } },
    ]);
    // The kill forced a second attempt of createTool.
    expect(await startedAttempts(handle, 'createTool')).toEqual([2]);
  }, 120_000);
});
