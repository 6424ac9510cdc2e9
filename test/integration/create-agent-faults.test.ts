// CreateAgent at the worst moment: the goal file is written, the worker's report of it never reaches Temporal, and
// the worker process is SIGKILLed. The retry on a new worker finds its own file (same conversation, same call) and
// succeeds: one goal file, written once, and the conversation goes on. Real dev server, real worker processes, the
// shipped demo script, a gRPC proxy holding the activity's completion.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { confirmSignal } from '../../core/messages';
import { FX_STDIO } from '../fixtures/scripts';
import { say, waitForUser, startedAttempts, startConversationForFaults } from '../helpers/conversation';
import { GrpcProxy } from '../../testkit/grpc-proxy';
import { startTemporal } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const REQUEST = 'I need an agent that converts currency and checks account balances';

describe('CreateAgent: the worker dies after writing the goal, before Temporal hears of it', () => {
  let env: TestWorkflowEnvironment;
  let proxy: GrpcProxy;
  let workerEnv: Record<string, string>;
  let goalsDir: string;
  const running: WorkerProcess[] = [];

  beforeAll(async () => {
    env = await startTemporal();
    proxy = await GrpcProxy.start(env.address);
    const dir = mkdtempSync(path.join(tmpdir(), 'create-agent-faults-'));
    goalsDir = path.join(dir, 'goals');
    writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { fx: FX_STDIO } }));
    workerEnv = {
      TEMPORAL_ADDRESS: proxy.address,
      TASK_QUEUE: `create-agent-faults-${process.pid}`,
      AGENT_GOAL: 'goal_agent_builder',
      DATA_DIR: dir,
      GOALS_DIR: goalsDir,
      LLM_MODEL: `scripted:${path.join(__dirname, '..', '..', 'config', 'scripted-model.json')}`,
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: path.join(dir, 'mcp.json'),
    };
    mkdirSync(goalsDir);
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

  it('writes the goal once and answers once', async () => {
    const first = await worker();
    const { handle } = await startConversationForFaults(env.client, workerEnv.TASK_QUEUE!, {
      goalId: 'goal_agent_builder',
    });
    const asked = await say(handle, REQUEST);
    expect(asked.pendingToolCall?.tool).toBe('CreateAgent');

    const reported = proxy.hold('RespondActivityTaskCompleted', 'request');
    await handle.signal(confirmSignal, { approve: true });
    await reported;
    // The file is on disk; Temporal does not know.
    const file = path.join(goalsDir, 'goal_fx_balances.json');
    expect(existsSync(file)).toBe(true);
    const written = readFileSync(file, 'utf8');
    await first.kill();
    proxy.release();
    await worker();

    const reply = await waitForUser(handle, 60_000);
    expect(reply?.reply).toBe('The agent goal_fx_balances is ready. Say "switch to goal_fx_balances" to use it.');
    expect(readdirSync(goalsDir)).toEqual(['goal_fx_balances.json']);
    expect(readFileSync(file, 'utf8')).toBe(written); // the retry found its own file and wrote nothing
    // The kill forced a second attempt of createGoal.
    expect(await startedAttempts(handle, 'createGoal')).toEqual([2]);
  }, 120_000);
});
