// Secrets never leave the worker: a provider that echoes the key in its 401 (as OpenAI's "Incorrect API key
// provided: sk-…" does) reaches the user as a clear message, and the key is in no reply, no history payload and no
// line the worker process logged, and no trace span it exported. A real worker process (worker/main.ts) against a real dev server and a local
// Chat Completions server.
import { tmpdir } from 'node:os';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  startFakeChatCompletions,
  completion,
  httpError,
  lastUserText,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { say, startConversation, waitUntil } from '../helpers/conversation';
import { startReceiver } from '../helpers/otlp-receiver';
import { startTemporal } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const KEY = 'sk-proj-Zq8vN2xT5kLm9Wp3Rt6YbC1dE4fG7hJ0';

describe('secrets stay in the worker', () => {
  let env: TestWorkflowEnvironment;
  let model: FakeChatCompletions;
  let worker: WorkerProcess;
  let traces: Awaited<ReturnType<typeof startReceiver>>;
  const taskQueue = `secrets-${process.pid}`;

  beforeAll(async () => {
    env = await startTemporal();
    // Greets fine, then refuses the key the way OpenAI does: by quoting it back.
    model = await startFakeChatCompletions((body) =>
      lastUserText(body).startsWith('Greet the user')
        ? completion({ text: 'Hi!' })
        : httpError(
            401,
            `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.example.com/account/api-keys.`,
          ),
    );
    traces = await startReceiver();
    worker = await startWorkerProcess({
      OTEL_EXPORTER_OTLP_ENDPOINT: traces.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
      AGENT_GOAL: 'goal_hr_pto',
      LLM_MODEL: 'openai-compatible:test-model',
      LLM_KEY: KEY,
      LLM_BASE_URL: model.baseUrl,
      VALIDATE_PROMPTS: 'false',
      MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
      DATA_DIR: tmpdir(),
      LOG_LEVEL: 'DEBUG',
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
    await traces?.close();
    await env?.teardown();
  });

  it('a provider error that echoes LLM_KEY is reported without it, in the reply, the history, the logs and the traces', async () => {
    const { handle } = await startConversation(env.client, taskQueue, { goalId: 'goal_hr_pto' });
    const reply = await say(handle, 'What is my balance?');
    expect(reply.reply).toMatch(
      /^Sorry, I could not get an answer from the language model \(.*HTTP 401.*check LLM_KEY.*\[secret\]/,
    );
    // The key did reach the provider: the scrubbing is not a missing key.
    expect(model.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    expect(reply.reply).not.toContain(KEY);
    const history = JSON.stringify(await handle.fetchHistory());
    // Payloads are base64 in the exported history: decode every one.
    const decoded = [...history.matchAll(/"data":"([A-Za-z0-9+/=]+)"/g)]
      .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
      .join('\n');
    expect(decoded).toContain('HTTP 401');
    expect(decoded).not.toContain(KEY);
    expect(history).not.toContain(KEY);
    expect(worker.output()).toContain('[secret]');
    expect(worker.output()).not.toContain(KEY);
    // The failed model call was traced (its llm.call span, and the activity's span with the failure recorded).
    await waitUntil(
      async () => traces.spans.some((s) => s.name === 'llm.call') && traces.bodies.some((b) => b.includes('HTTP 401')),
      15_000,
    );
    expect(traces.bodies.join('\n')).toContain('[secret]');
    expect(traces.bodies.join('\n')).not.toContain(KEY);
  });
});
