// Fault injection on the Temporal server itself: a real dev server with its SQLite file, SIGKILLed while a turn's
// model call is in flight and started again on the same port and file; a real worker process (worker/main.ts) that
// outlives it; the model a local Chat Completions server. The user's `agent say` must wait the outage out and
// print the reply of that one prompt, queued once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentClient } from '../../client/agent-client';
import { runCli } from '../helpers/cli';
import {
  completion,
  lastUserText,
  startFakeChatCompletions,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { startKillableServer, type KillableServer } from '../../testkit/killable-server';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

/** Longer than the SDK's own ~20 s of retries of a call, so the client has to wait the outage out itself. */
const OUTAGE_MS = 25_000;
/** The model's answer takes this long: the server is killed while it is being written. */
const MODEL_MS = 5_000;
const PROMPT = 'a slow question';

describe('faults: the Temporal server killed and restarted mid-turn', () => {
  let server: KillableServer;
  let model: FakeChatCompletions;
  let worker: WorkerProcess;
  let cliEnv: NodeJS.ProcessEnv;
  let asked: () => void;
  const modelAsked = new Promise<void>((resolve) => (asked = resolve));

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'server-restart-'));
    server = await startKillableServer(dataDir);
    model = await startFakeChatCompletions(async (body) => {
      if (!lastUserText(body).includes(PROMPT)) return completion({ text: 'Hi.' });
      asked();
      await new Promise((r) => setTimeout(r, MODEL_MS));
      return completion({ text: 'The slow answer.' });
    });
    cliEnv = {
      TEMPORAL_ADDRESS: server.address,
      TASK_QUEUE: `server-restart-${process.pid}`,
      AGENT_GOAL: 'goal_hr_pto',
    };
    worker = await startWorkerProcess({
      ...(cliEnv as Record<string, string>),
      DATA_DIR: dataDir,
      LLM_MODEL: 'openai-compatible:test-model',
      LLM_BASE_URL: model.baseUrl,
      LLM_KEY: 'test-key',
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: path.join(dataDir, 'no-mcp.json'),
    });
  }, 90_000);
  afterAll(async () => {
    await worker?.kill();
    await server?.kill();
    await model?.close();
  });

  const agent = (args: string[]) => runCli(args, cliEnv);

  it('`agent say` waits the restart out and prints the reply, within seconds of the server being back; the prompt is queued once', async () => {
    const started = await agent(['start', '--json']);
    expect(started.code).toBe(0);
    const { id } = JSON.parse(started.out) as { id: string };

    const said = agent(['say', id, PROMPT, '--json']);
    await modelAsked;
    await server.kill();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    const restarted = Date.now();
    await server.restart();

    const { code, out, err } = await said;
    const waited = Date.now() - restarted;
    expect({ code, err }).toEqual({
      code: 0,
      err: expect.stringMatching(/^\(the Temporal server is not reachable; waiting up to \d+ s for it…\)\n$/),
    });
    expect(JSON.parse(out)).toMatchObject({ reply: 'The slow answer.' });
    expect(waited).toBeLessThan(30_000);
    // The model call in flight went down with the server and was made again: the kill landed mid-turn.
    expect(model.requests.filter((r) => lastUserText(r.body).includes(PROMPT))).toHaveLength(2);

    const client = await AgentClient.connect(cliEnv.TASK_QUEUE!, cliEnv);
    try {
      const prompts = (await client.history(id)).filter((m) => m.kind === 'user' && m.text === PROMPT);
      expect(prompts).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 120_000);
});
