// The run view over the HTTP API on a real dev server and worker: a turn whose agent hands two tasks to two
// delegates at once, one of which waits for an approval and the other for an answer. The live stream shows both
// branches with their steps, the waits, then everything done with totals that agree with the conversation's own
// usage; the one-shot read gives the same tree. The model is the scripted one, 150 ms per call.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ScriptedModel } from '../../activities/llm/scripted-model';
import { usageQuery } from '../../core/messages';
import type { RunBranch, RunStep, RunView } from '../../core/run-view';
import { delegationGoalsDir, delegationScript } from '../fixtures/delegation';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { openEvents, type SseEvent } from '../../testkit/sse';
import { runCli } from '../helpers/cli';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';

class SlowScriptedModel extends ScriptedModel {
  override async doStream(options: LanguageModelV3CallOptions) {
    await sleep(150);
    return super.doStream(options);
  }
}

const UI = 'http://temporal-ui.test:8233';
const mon = week(4);
const tue = week(4, 1);

describe('run view (API)', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let api: RunningApi;
  let bus: StreamBus;

  beforeAll(async () => {
    env = await startTemporal();
    worker = await startWorker(env, {
      model: { model: new SlowScriptedModel(delegationScript), provider: 'scripted', modelId: 'test', description: '' },
      settings: testSettings({ AGENT_GOAL: 'goal_boss', GOALS_DIR: delegationGoalsDir() }),
    });
    bus = createStreamBus();
    api = await startApi({
      agents: new AgentClient(env.client, worker.worker.options.taskQueue),
      bus,
      defaultGoal: 'goal_boss',
      settings: {
        port: 0,
        host: '127.0.0.1',
        keys: null,
        bodyLimitBytes: 64 * 1024,
        corsOrigins: [],
        temporalUiUrl: UI,
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await bus?.close();
    await worker?.stop();
    await env?.teardown();
  });

  const post = async (path: string, body: unknown) =>
    (await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as Record<string, never>;

  const view = (e: SseEvent) => e.data as RunView;
  const delegates = (b: RunBranch): RunStep[] => b.turns.flatMap((t) => t.steps.filter((s) => s.kind === 'delegate'));
  const branchOf = (v: RunView, goal: string) => delegates(v.root).find((s) => s.id.endsWith(goal))?.branch;

  it('shows two delegates live, the approval and the question they wait for, then the totals', async () => {
    const { conversationId: id } = await post('/api/conversations', { goalId: 'goal_boss' });
    const stream = await openEvents(`${api.url}/api/conversations/${encodeURIComponent(id)}/run/events`);
    try {
      const first = view(await stream.next((e) => e.event === 'run'));
      expect(first.root).toMatchObject({ workflowId: id, agentName: 'Boss', goalId: 'goal_boss' });
      expect(first.root.temporalUrl).toBe(
        `${UI}/namespaces/default/workflows/${encodeURIComponent(id)}/${first.root.runId}/history`,
      );
      expect(first.root.turns[0]?.steps.map((s) => [s.kind, s.status, s.model])).toEqual([
        ['model', 'done', 'scripted:test'],
      ]);

      await post(`/api/conversations/${id}/messages?wait=false`, {
        text: `take ${mon} to ${tue} off for ada@example.com and chase my order`,
      });
      // Both branches while they wait: the PTO agent for an approval of BookPTO, the order agent for an answer.
      const waiting = view(
        await stream.next((e) => {
          const pto = branchOf(view(e), 'goal_hr_pto');
          const order = branchOf(view(e), 'goal_order_status');
          return (
            !!pto?.turns[0]?.steps.some((s) => s.kind === 'approval' && s.status === 'waiting') &&
            order?.status === 'waiting'
          );
        }, 30_000),
      );
      const turn = waiting.root.turns[1]!;
      expect(turn.prompt).toMatch(new RegExp(`^take ${mon}`));
      expect(turn.steps.map((s) => [s.kind, s.label])).toEqual([
        ['model', 'check the prompt fits and plan the next step'],
        ['delegate', 'PTO assistant'],
        ['delegate', 'Order status'],
      ]);
      expect(turn.steps[0]!.detail).toBe('asks for AskAgent, AskAgent');
      expect(turn.status).toBe('waiting');
      expect(waiting.root.status).toBe('waiting');
      expect(turn.steps.slice(1).map((s) => s.status)).toEqual(['waiting', 'waiting']);
      const pto = branchOf(waiting, 'goal_hr_pto')!;
      expect(pto.turns[0]!.prompt).toBe(`book ${mon} to ${tue} for ada@example.com`);
      expect(pto.turns[0]!.steps.map((s) => [s.kind, s.label, s.status])).toEqual([
        ['model', 'plan the next step', 'done'],
        ['approval', 'BookPTO', 'waiting'],
      ]);
      expect(pto.temporalUrl).toContain(encodeURIComponent(`${id}/1-goal_hr_pto`));
      // The same tree read once.
      const once = (await (await fetch(`${api.url}/api/conversations/${id}/run`)).json()) as RunView;
      expect(delegates(once.root).map((s) => s.label)).toEqual(['PTO assistant', 'Order status']);

      // Approve, answer: both branches finish, then the boss's last model call.
      const page = (await (await fetch(`${api.url}/api/conversations/${id}`)).json()) as {
        pendingApproval: { call: { id: string } };
      };
      await post(`/api/conversations/${id}/confirm`, { approve: true, callId: page.pendingApproval.call.id });
      await post(`/api/conversations/${id}/messages`, { text: 'ORD-1001' });
      // The answer belongs to the turn it answered: two turns, the greeting and this one.
      const done = view(
        await stream.next(
          (e) =>
            view(e).root.turns.length === 2 &&
            view(e).root.turns[1]!.status === 'done' &&
            delegates(view(e).root).every((s) => s.status === 'done'),
          30_000,
        ),
      );
      expect(done.root.turns.map((t) => t.prompt)).toEqual(['', expect.stringMatching(new RegExp(`^take ${mon}`))]);
      const booked = branchOf(done, 'goal_hr_pto')!;
      expect(booked.status).toBe('done');
      expect(booked.turns[0]!.steps.map((s) => [s.kind, s.label, s.status])).toEqual([
        ['model', 'plan the next step', 'done'],
        ['approval', 'BookPTO', 'done'],
        ['tool', 'BookPTO', 'done'],
        ['model', 'plan the next step', 'done'],
      ]);
      expect(booked.turns[0]!.steps[1]!.detail).toBe('approved');
      const order = branchOf(done, 'goal_order_status')!;
      expect(order.status).toBe('done');
      expect(
        order.turns
          .flatMap((t) => t.steps)
          .filter((s) => s.kind === 'tool')
          .map((s) => s.label),
      ).toEqual(['GetOrder']);

      // Totals: the root's usage is the conversation's own (delegates rolled up), model calls counted in every branch.
      const usage = await env.client.workflow.getHandle(id).query(usageQuery);
      expect(done.root.totals.usage.totalTokens).toBe(usage.total.totalTokens);
      const modelCalls = (b: RunBranch): number =>
        b.turns.flatMap((t) => t.steps).filter((s) => s.kind === 'model').length +
        delegates(b).reduce((n, s) => n + (s.branch ? modelCalls(s.branch) : 0), 0);
      expect(done.root.totals.modelCalls).toBe(modelCalls(done.root));
      expect(done.root.totals.toolCalls).toBe(2); // BookPTO, GetOrder
      const delegateTurn = done.root.turns.find((t) => t.steps.some((s) => s.kind === 'delegate'))!;
      expect(delegateTurn.totals.waitMs).toBeGreaterThan(0);
      expect(delegateTurn.totals.durationMs).toBeGreaterThanOrEqual(delegateTurn.totals.waitMs);

      // The CLI reads the same run: the last turn, delegates indented with their steps, a Temporal UI link each.
      const cli = await runCli(['run', id, '--last', '1'], {
        TEMPORAL_ADDRESS: env.address,
        TASK_QUEUE: worker.worker.options.taskQueue,
        TEMPORAL_UI_URL: UI,
      });
      expect(cli.err).toBe('');
      const lines = cli.out.split('\n');
      expect(lines[0]).toMatch(
        new RegExp(
          `^Boss \\(${id}\\) · done · [\\d.]+ s · [\\d,]+ tokens · (free|\\$[\\d.]+) · 8 model calls · 2 tool calls · \\d+ ms waiting for you$`,
        ),
      );
      expect(lines[1]).toBe(`  ${done.root.temporalUrl}`);
      expect(lines[2]).toBe('(1 earlier turn)');
      expect(cli.out).toMatch(new RegExp(`^take ${mon} .* · done · `, 'm'));
      expect(cli.out).toMatch(/^ {4}agent {4}PTO assistant · done · .* 2 model calls · 1 tool call · /m);
      expect(cli.out).toMatch(/^ {12}approval BookPTO · done · .*\n {21}approved$/m);
      expect(cli.out).toMatch(/^ {12}tool {5}GetOrder · done · /m);
      const json = await runCli(['run', id, '--json'], {
        TEMPORAL_ADDRESS: env.address,
        TASK_QUEUE: worker.worker.options.taskQueue,
      });
      expect((JSON.parse(json.out) as RunView).root.totals).toEqual(done.root.totals);
    } finally {
      stream.close();
    }
  });

  it('answers an unknown conversation with 404, on the read and on the stream', async () => {
    const res = await fetch(`${api.url}/api/conversations/nobody-here/run`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toMatch(/No conversation/);
    expect((await fetch(`${api.url}/api/conversations/nobody-here/run/events`)).status).toBe(404);
    const cli = await runCli(['run', 'nobody-here'], {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: worker.worker.options.taskQueue,
    });
    expect([cli.code, cli.err]).toEqual([1, 'error: No conversation with id nobody-here.\n']);
  });
});
