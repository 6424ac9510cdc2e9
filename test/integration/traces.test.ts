// Traces on a real worker process (worker/main.ts with OTEL_EXPORTER_OTLP_ENDPOINT), a real dev server and a real MCP
// server over HTTP, exported over OTLP/HTTP to a receiver this test runs: a tool turn is one tree, from the client's
// StartWorkflow through the workflow run, the turn, each activity and, inside them, the model call (model, tokens,
// cost) and the tool call (server, tool, outcome). The CLI, run from a shell, starts the trace of what it starts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serveMcpOverHttp, type HttpMcpServer } from '../../demo/serve';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { startTracing, type Tracing } from '../../runtime/tracing';
import { endChatSignal } from '../../core/messages';
import { say, startConversation, waitUntil } from '../helpers/conversation';
import { startReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { startTemporal } from '../../testkit/temporal';
import { scriptedWorkerSettings, startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi.' } },
    { user: 'note (\\S+)', reply: { toolCalls: [{ tool: 'notes__add', args: { text: '{{1}}' } }] } },
    { afterTool: 'notes__add', outcome: 'ok', reply: { text: 'Noted {{result.text}}.' } },
  ],
};

function notesServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds a note.', inputSchema: { text: z.string() }, annotations: { idempotentHint: true } },
    async ({ text }) => ({
      content: [{ type: 'text' as const, text: JSON.stringify({ text }) }],
      structuredContent: { text },
    }),
  );
  return server;
}

describe('traces: OTLP from a worker process to a local receiver', () => {
  let env: TestWorkflowEnvironment;
  let notes: HttpMcpServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: WorkerProcess;
  let tracing: Tracing;
  let client: Client;
  const taskQueue = `traces-${process.pid}`;

  beforeAll(async () => {
    env = await startTemporal();
    notes = await serveMcpOverHttp(notesServer, 0);
    receiver = await startReceiver();
    const { dir, env: settings } = scriptedWorkerSettings('traces', {
      address: env.address,
      taskQueue,
      script,
      mcpServers: { notes: { url: notes.url, requireApproval: 'never' } },
    });
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    worker = await startWorkerProcess({
      ...otel,
      OTEL_SERVICE_NAME: 'test-worker',
      ...settings,
      DATA_DIR: path.join(dir, 'data'),
    });
    // The client side, as the API or npm start traces it: the trace starts where the conversation is started.
    // startTracing reads the process environment, as the OpenTelemetry SDK does; this test file has its own process.
    Object.assign(process.env, otel);
    tracing = startTracing('test-client')!;
    client = new Client({ connection: env.connection, interceptors: { workflow: tracing.clientInterceptors } });
  }, 120_000);
  afterAll(async () => {
    await worker?.kill();
    await tracing?.shutdown();
    await receiver?.close();
    await notes?.close();
    await env?.teardown();
  });

  test('a tool turn: StartWorkflow → RunWorkflow → agent.turn → activities → llm.call and tool.call', async () => {
    const { handle } = await startConversation(client, taskQueue, { goalId: 'goal_general' });
    expect((await say(handle, 'note milk')).reply).toBe('Noted milk.');
    await handle.signal(endChatSignal);
    await handle.result();
    await tracing.shutdown(); // flushes the client's StartWorkflow span
    const byId = new Map<string, ReceivedSpan>();
    const children = (parent: ReceivedSpan, name: string) =>
      receiver.spans.filter((s) => s.parentSpanId === parent.spanId && s.name === name);
    let root: ReceivedSpan | undefined;
    // The workflow's own span ends with the conversation; the worker exports it within moments.
    await waitUntil(async () => {
      root = receiver.spans.find(
        (s) => s.name === 'StartWorkflow:AgentGoalWorkflow' && s.attributes['temporalWorkflowId'] === handle.workflowId,
      );
      const run =
        root &&
        receiver.spans.find((s) => s.parentSpanId === root!.spanId && s.name === 'RunWorkflow:AgentGoalWorkflow');
      return (
        !!run &&
        receiver.spans.some(
          (s) =>
            s.parentSpanId === run.spanId &&
            s.name === 'agent.turn' &&
            s.attributes['agent.turn'] === 1 &&
            run.traceId === s.traceId,
        ) &&
        receiver.spans.filter((s) => s.name === 'agent.turn' && s.traceId === root!.traceId).length >= 2
      );
    }, 30_000);
    for (const s of receiver.spans) byId.set(s.spanId, s);
    const trace = receiver.spans.filter((s) => s.traceId === root!.traceId);
    expect(root!.service).toBe('test-client');

    const [run] = children(root!, 'RunWorkflow:AgentGoalWorkflow');
    expect(run!.service).toBe('test-worker');
    // Two turns: the greeting and the tool turn, in order; the tool turn ended waiting for the user.
    const turns = children(run!, 'agent.turn');
    expect(turns.map((t) => t.attributes['agent.then'])).toEqual(['waiting_for_user', 'waiting_for_user']);
    const toolTurn = turns.find((t) => children(t, 'StartActivity:callMcpTool').length > 0)!;
    expect(toolTurn.attributes['agent.goal']).toBe('goal_general');

    // Its model calls: StartActivity → RunActivity → llm.call, with the model, tokens and cost.
    const plans = children(toolTurn, 'StartActivity:planTurn')
      .flatMap((s) => children(s, 'RunActivity:planTurn'))
      .flatMap((s) => children(s, 'llm.call'));
    expect(plans).toHaveLength(2);
    for (const call of plans) {
      expect(call.attributes).toMatchObject({
        'llm.model': expect.stringMatching(/^scripted:/),
        'agent.goal': 'goal_general',
        'llm.task': 'plan',
        'llm.cost_usd': 0,
      });
      expect(call.attributes['llm.input_tokens']).toBeGreaterThan(0);
      expect(call.attributes['llm.output_tokens']).toBeGreaterThan(0);
    }
    // Its tool call: StartActivity → RunActivity → tool.call, with the server, the tool and the outcome.
    const tools = children(toolTurn, 'StartActivity:callMcpTool')
      .flatMap((s) => children(s, 'RunActivity:callMcpTool'))
      .flatMap((s) => children(s, 'tool.call'));
    expect(tools.map((t) => t.attributes)).toEqual([
      { 'tool.name': 'add', 'mcp.server': 'notes', 'tool.outcome': 'ok' },
    ]);
    // One trace: every span of ours has its parent in it.
    for (const s of trace.filter((x) => ['agent.turn', 'llm.call', 'tool.call'].includes(x.name)))
      expect(byId.get(s.parentSpanId)?.traceId).toBe(root!.traceId);
  }, 90_000);

  test('the agent CLI, run from a shell, starts the trace of the conversation it starts', async () => {
    const id = `traced-cli-${process.pid}`;
    // Not spawnSync: the receiver runs in this process and must answer while the CLI exports.
    await promisify(execFile)(
      process.execPath,
      ['--require', 'tsx/cjs', 'client/cli.ts', 'start', '--goal', 'goal_general', '--id', id],
      {
        cwd: path.join(__dirname, '..', '..'),
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ENV_FILE: '/dev/null',
          TEMPORAL_ADDRESS: env.address,
          TASK_QUEUE: taskQueue,
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        },
      },
    );
    // Exported before the CLI exited (its shutdown flushes).
    const start = receiver.spans.find(
      (s) => s.name === 'StartWorkflow:AgentGoalWorkflow' && s.attributes['temporalWorkflowId'] === id,
    );
    expect(start?.service).toBe('agent-cli');
    // The workflow's span ends with the conversation.
    await client.workflow.getHandle(id).signal(endChatSignal);
    await waitUntil(
      async () =>
        receiver.spans.some(
          (s) =>
            s.parentSpanId === start!.spanId &&
            s.name === 'RunWorkflow:AgentGoalWorkflow' &&
            s.service === 'test-worker',
        ),
      30_000,
    );
  }, 60_000);
});
