// Scale-out on one machine: three agent worker processes (worker/main.ts, as `npm run worker` runs it) on one task
// queue, 50 conversations each paying through a shared MCP ledger at once, and one worker SIGKILLed while they run.
// Every conversation completes, and every payment is applied exactly once: the ledger, like any idempotent service,
// applies each idempotency key once, however often a retry sends it.
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serveMcpOverHttp, type HttpMcpServer } from '../../demo/serve';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { say, startConversationForFaults } from '../helpers/conversation';
import { startTemporal } from '../../testkit/temporal';
import { scriptedWorkerSettings, startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';

const CONVERSATIONS = 50;

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi.' } },
    {
      user: 'pay (\\d+) ref (\\S+)',
      reply: { toolCalls: [{ tool: 'ledger__pay', args: { amount: '{{1:number}}', reference: '{{2}}' } }] },
    },
    { afterTool: 'ledger__pay', outcome: 'ok', reply: { text: 'Paid {{result.reference}}.' } },
  ],
};

/** An idempotent payment service: a call with a key it has seen answers as before and pays nothing more. */
function ledgerServer() {
  const applied = new Map<string, string>();
  let calls = 0;
  const create = () => {
    const server = new McpServer({ name: 'ledger', version: '1.0.0' });
    server.registerTool(
      'pay',
      {
        description: 'Pays an amount for a reference.',
        inputSchema: { amount: z.number(), reference: z.string() },
        annotations: { idempotentHint: true, destructiveHint: false },
      },
      async ({ amount, reference }, extra) => {
        calls++;
        // A little work, so that calls are still in flight when the worker dies.
        await new Promise((r) => setTimeout(r, 200));
        const key = String(extra._meta?.idempotencyKey ?? `${reference}:${amount}`);
        if (!applied.has(key)) applied.set(key, reference);
        return {
          content: [{ type: 'text' as const, text: JSON.stringify({ paid: amount, reference }) }],
          structuredContent: { paid: amount, reference },
        };
      },
    );
    return server;
  };
  return { applied, calls: () => calls, create };
}

describe('scale-out: three worker processes on one task queue, one killed mid-load', () => {
  let env: TestWorkflowEnvironment;
  let ledger: ReturnType<typeof ledgerServer>;
  let ledgerHttp: HttpMcpServer;
  const workers: WorkerProcess[] = [];
  const taskQueue = `scale-out-${process.pid}`;

  beforeAll(async () => {
    env = await startTemporal();
    ledger = ledgerServer();
    ledgerHttp = await serveMcpOverHttp(ledger.create, 0);
    const { dir, env: settings } = scriptedWorkerSettings('scale-out', {
      address: env.address,
      taskQueue,
      script,
      mcpServers: { ledger: { url: ledgerHttp.url, requireApproval: 'never', timeoutMs: 30_000 } },
    });
    const base = {
      ...settings,
      // Sticky tasks of a dead worker move to the others after this long (the shipped default is 5 s).
      WORKER_STICKY_SCHEDULE_TO_START: '2s',
    };
    workers.push(
      ...(await Promise.all([0, 1, 2].map((i) => startWorkerProcess({ ...base, DATA_DIR: path.join(dir, `w${i}`) })))),
    );
  }, 120_000);
  afterAll(async () => {
    for (const w of workers) await w.kill();
    await ledgerHttp?.close();
    await env?.teardown();
  });

  it('completes all 50 conversations with every payment applied once', async () => {
    const handles = await Promise.all(
      Array.from(
        { length: CONVERSATIONS },
        async () => (await startConversationForFaults(env.client, taskQueue, { goalId: 'goal_general' })).handle,
      ),
    );
    const replies = Promise.all(handles.map((h, i) => say(h, `pay ${10 + i} ref R-${i}`)));

    // Kill one worker once payments are under way and before they are all done.
    const deadline = Date.now() + 30_000;
    while (ledger.calls() < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const callsAtKill = ledger.calls();
    await workers[0]!.kill();
    expect(callsAtKill).toBeGreaterThanOrEqual(5);
    expect(ledger.applied.size).toBeLessThan(CONVERSATIONS);

    const done = await replies;
    expect(done.map((r) => r.reply)).toEqual(handles.map((_, i) => `Paid R-${i}.`));
    // Exactly once: one applied payment per conversation, whatever the retries sent.
    expect([...ledger.applied.values()].sort()).toEqual(handles.map((_, i) => `R-${i}`).sort());

    // The kill mattered: some conversations had workflow tasks done by the killed worker and finished elsewhere.
    const killed = `${workers[0]!.child.pid}@`;
    let movedOver = 0;
    for (const h of handles) {
      const identities = ((await h.fetchHistory()).events ?? []).flatMap((e) =>
        e.workflowTaskCompletedEventAttributes?.identity ? [e.workflowTaskCompletedEventAttributes.identity] : [],
      );
      if (identities.some((id) => id.startsWith(killed)) && !identities.at(-1)!.startsWith(killed)) movedOver++;
    }
    expect(movedOver).toBeGreaterThan(0);
  }, 180_000);
});
