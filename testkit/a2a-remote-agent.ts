// A remote agent built with another team's tools: an A2A server made with @a2a-js/sdk alone (its DefaultRequestHandler,
// in-memory task store and express transports), run as a process of its own, for our orchestrator to delegate to.
// What it does, by the first word of the task:
//   slow <ms> <words>  works <ms> before it completes with "done: <words>"
//   ask <question>     needs input (the question); the next message on the task completes it with "thanks: <answer>"
//   anything else      completes at once with "echo: <text>"
// GET /stats counts the messages, tasks and contexts it received, so a test can tell a task sent twice from one
// resumed, and a follow-up in its context from a new conversation.
//
// Run: tsx testkit/a2a-remote-agent.ts <port>; prints "a2a agent on http://127.0.0.1:<port>" when it listens.
import express from 'express';
import { a2a, textOf } from '../endpoints/a2a/sdk';
import type { Message, Task } from '../endpoints/a2a/sdk';
/* eslint-disable @typescript-eslint/no-require-imports */
const server = require('@a2a-js/sdk/server') as typeof import('@a2a-js/sdk/server', {
  with: { 'resolution-mode': 'import' },
});
const transports = require('@a2a-js/sdk/server/express') as typeof import('@a2a-js/sdk/server/express', {
  with: { 'resolution-mode': 'import' },
});
/* eslint-enable @typescript-eslint/no-require-imports */

const { TaskState, Role } = a2a;
const port = Number(process.argv[2] ?? 0);
const stats = { messages: 0, tasks: 0, cancels: 0, contexts: 0 };
const contexts = new Set<string>();

const agentMessage = (taskId: string, contextId: string, words: string): Message => ({
  messageId: `${taskId}/${Date.now()}`,
  contextId,
  taskId,
  role: Role.ROLE_AGENT,
  parts: [{ content: { $case: 'text', value: words }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const cancelled = new Set<string>();

const executor = {
  async execute(
    ctx: InstanceType<typeof server.RequestContext>,
    bus: import('@a2a-js/sdk/server', { with: { 'resolution-mode': 'import' } }).ExecutionEventBus,
  ) {
    stats.messages++;
    const { taskId, contextId } = ctx;
    const said = textOf(ctx.userMessage).trim();
    const status = (state: number, words?: string) =>
      bus.publish({
        kind: 'statusUpdate',
        data: {
          taskId,
          contextId,
          status: {
            state,
            message: words ? agentMessage(taskId, contextId, words) : undefined,
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        },
      });
    const complete = (words: string) => {
      bus.publish({
        kind: 'artifactUpdate',
        data: {
          taskId,
          contextId,
          artifact: {
            artifactId: 'result',
            name: 'result',
            description: '',
            parts: agentMessage(taskId, contextId, words).parts,
            metadata: undefined,
            extensions: [],
          },
          append: false,
          lastChunk: true,
          metadata: undefined,
        },
      });
      status(TaskState.TASK_STATE_COMPLETED, words);
      bus.finished();
    };
    if (ctx.task) {
      // The answer to the question this task asked.
      complete(`thanks: ${said}`);
      return;
    }
    stats.tasks++;
    contexts.add(contextId);
    stats.contexts = contexts.size;
    const task: Task = {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [ctx.userMessage],
      metadata: undefined,
    };
    bus.publish({ kind: 'task', data: task });
    status(TaskState.TASK_STATE_WORKING);
    const slow = /^slow (\d+) (.*)$/s.exec(said);
    const ask = /^ask (.*)$/s.exec(said);
    if (slow) {
      await new Promise((r) => setTimeout(r, Number(slow[1])));
      if (cancelled.has(taskId)) return;
      complete(`done: ${slow[2]}`);
    } else if (ask) {
      status(TaskState.TASK_STATE_INPUT_REQUIRED, ask[1]);
      bus.finished();
    } else {
      complete(`echo: ${said}`);
    }
  },
  async cancelTask(
    taskId: string,
    bus: import('@a2a-js/sdk/server', { with: { 'resolution-mode': 'import' } }).ExecutionEventBus,
  ) {
    stats.cancels++;
    cancelled.add(taskId);
    bus.publish({
      kind: 'statusUpdate',
      data: {
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      },
    });
    bus.finished();
  },
};

const app = express();
const listening = app.listen(port, '127.0.0.1', () => {
  const { port: bound } = listening.address() as { port: number };
  const base = `http://127.0.0.1:${bound}`;
  const card = {
    name: 'Remote helper',
    description: 'An agent of another team, built with the A2A SDK: it echoes, works slowly, or asks a question.',
    supportedInterfaces: [{ url: base, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'says back what it is told',
        tags: [],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
      {
        id: 'slow',
        name: 'Slow work',
        description: 'works a while, then answers',
        tags: [],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const requestHandler = new server.DefaultRequestHandler(card, new server.InMemoryTaskStore(), executor);
  const userBuilder = transports.UserBuilder.noAuthentication;
  app.get('/stats', (_req, res) => void res.json(stats));
  app.use('/.well-known/agent-card.json', transports.agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/', transports.jsonRpcHandler({ requestHandler, userBuilder }));
  console.log(`a2a agent on ${base}`);
});
