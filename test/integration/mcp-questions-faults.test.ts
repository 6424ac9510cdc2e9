// The worker process is SIGKILLed while an MCP tool's question waits for the user (docs/mcp.md, "Tools that ask").
// The question lives on in the conversation. An idempotent tool's call is retried on the next worker and asks again
// with the same question id: answered meanwhile, it gets that answer at once — the user is asked once, the server
// ran twice. A tool that is not idempotent gets no retry (it may have run): the call ends as "may have run" and
// its question is withdrawn, so nobody is left answering a question no call waits for. Real dev server, real worker
// processes, real MCP servers: ours over stdio (test/fixtures/mcp/asking-server.ts), server-everything over HTTP.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { answerQuestionUpdate, feedQuery, statusQuery } from '../../core/messages';
import { ASKING, EVERYTHING_HTTP, questionsScript } from '../fixtures/tool-questions';
import { startEverythingHttp } from '../../testkit/everything-server';
import { say, startedAttempts, startConversationForFaults } from '../helpers/conversation';
import { startTemporal } from '../../testkit/temporal';
import { scriptedWorkerSettings, startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

describe('a worker dies while a tool asks the user', () => {
  let env: TestWorkflowEnvironment;
  let workerEnv: Record<string, string>;
  let log: string;
  let everythingHttp: Awaited<ReturnType<typeof startEverythingHttp>>;
  const running: WorkerProcess[] = [];

  beforeAll(async () => {
    everythingHttp = await startEverythingHttp();
    env = await startTemporal();
    const taskQueue = `mcp-questions-faults-${process.pid}`;
    log = path.join(mkdtempSync(path.join(tmpdir(), 'asking-log-')), 'asking.log');
    const { env: settings } = scriptedWorkerSettings('mcp-questions-faults', {
      address: env.address,
      taskQueue,
      script: questionsScript,
      mcpServers: { asking: ASKING(log), everything_http: EVERYTHING_HTTP(everythingHttp.url) },
    });
    workerEnv = { ...settings, TOOL_SEARCH_THRESHOLD: '0' };
  });
  afterAll(async () => {
    for (const w of running) await w.kill();
    await env?.teardown();
    await everythingHttp?.end();
  });

  const worker = async () => {
    const w = await startWorkerProcess(workerEnv);
    running.push(w);
    return w;
  };
  const runs = (tool: string) =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith(`${tool} `)).length;
  const questionsAsked = async (handle: WorkflowHandle) =>
    ((await handle.fetchHistory()).events ?? []).filter(
      (e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'toolQuestion',
    ).length;

  it('asks once across the crash for a retried call, and withdraws the question of a call that may have run', async () => {
    const first = await worker();
    const queue = workerEnv.TASK_QUEUE!;
    const retried = (await startConversationForFaults(env.client, queue, { goalId: 'goal_general' })).handle;
    const lost = (await startConversationForFaults(env.client, queue, { goalId: 'goal_general' })).handle;
    const lostHttp = (await startConversationForFaults(env.client, queue, { goalId: 'goal_general' })).handle;
    const asked = await say(retried, 'greet me');
    const askedOnce = await say(lost, 'greet once');
    // server-everything over Streamable HTTP: a server that outlives the worker, its tool not idempotent.
    const askedHttp = await say(lostHttp, 'fill the web form');
    expect(asked.question?.tool).toBe('asking__greet');
    expect(askedOnce.question?.tool).toBe('asking__greet_once');
    expect(askedHttp.question?.tool).toBe('everything_http__trigger-elicitation-request');

    await first.kill();
    // Answered while no worker runs: the answer is recorded in the conversation, waiting for the call.
    const answered = retried.executeUpdate(answerQuestionUpdate, {
      args: [{ questionId: asked.question!.id, answer: { action: 'accept', content: { name: 'Ada' } } }],
    });
    await worker();

    expect((await answered).reply).toBe('Hello, Dr Ada!');
    // History keeps the last attempt's start: 2 is the retry on the new worker.
    expect(await startedAttempts(retried, 'callMcpTool')).toEqual([2]);
    expect(runs('greet')).toBe(2);
    expect(await questionsAsked(retried)).toBe(1);

    const ended = await until(lost, (s) => !s.lastReply?.question);
    expect(ended).toMatch(/asking\/greet_once was sent, then lost .*may or may not have run/);
    expect(await startedAttempts(lost, 'callMcpTool')).toEqual([1]);
    expect(runs('greet_once')).toBe(1);
    expect((await lost.query(feedQuery, 0)).question).toBeNull();

    expect(await until(lostHttp, (s) => !s.lastReply?.question)).toMatch(
      /everything_http\/trigger-elicitation-request was sent, then lost .*may or may not have run/,
    );
    expect((await lostHttp.query(feedQuery, 0)).question).toBeNull();
  });
});

/** The reply once the conversation waits for the user in a state `done` accepts. */
async function until(
  handle: WorkflowHandle,
  done: (status: { lastReply: { reply: string; question?: unknown } | null }) => boolean,
): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const status = await handle.query(statusQuery);
    if (status.state !== 'working' && done(status)) return status.lastReply?.reply ?? '';
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the conversation did not get there');
}
