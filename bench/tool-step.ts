// A tool step after an approval (issue 29): confirm → reply of BookPTO, the step temporal-ai-agent also takes in three
// workflow tasks and two activities. Two agent workers built as production builds them, interleaved turn by turn: one
// with the shipped tools (BookPTO runs as a local activity, inside the workflow task the approval wakes), and one
// whose BookPTO names the worker's own task queue, as a tool owned by another team's worker does — which makes it an
// activity of its own, the path every native tool took before local activities. Target: now ≤ 0.85× the activity.
// Then a native tool's own overhead, in-process: CurrentPTO through the worker's tool dispatcher (the effect ledger, the
// claim check, telemetry, hooks) against its bare `run`. Target: ≤ 3 ms above it.
import { performance } from 'node:perf_hooks';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import { createToolDispatcher } from '../activities/tool-activities';
import { confirmUpdate, endChatSignal, promptUpdate } from '../core/messages';
import { MockStore } from '../tools/define-tool';
import { loadNativeTools, ToolRegistry } from '../tools/tool-registry';
import { AgentGoalWorkflow } from '../workflows';
import type { BenchContext, BenchPart } from './context';
import { historyTimeline } from './history-timeline';
import type { ToolStepOptions } from './options';
import { PTO_GOAL } from './scripted-answers';
import { formatMs, round, roundSummary, summarize, waitForGreeting, type Summary } from './stats';
import { turnBreakdown, type TurnBreakdown } from './turn-breakdown';
import { createBenchAgentWorker } from './workers';
import { judge } from './verdict';

const PATHS = ['local', 'activity'] as const;
type ToolPath = (typeof PATHS)[number];
const LABEL: Record<ToolPath, string> = {
  local: 'BookPTO as a local activity (shipped)',
  activity: 'BookPTO as an activity of its own (before)',
};
const SCRIPT = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hi!' } },
    {
      user: '^bench: book (\\S+) for (\\S+)',
      reply: { toolCalls: [{ tool: 'BookPTO', args: { email: '{{2}}', startDate: '{{1}}', endDate: '{{1}}' } }] },
    },
    { afterTool: 'BookPTO', reply: { text: 'Done.' } },
  ],
};
const STEP_TARGET = 0.85;
const OVERHEAD_TARGET_MS = 3;

interface Run {
  ms: Record<ToolPath, number[]>;
  steps: Record<ToolPath, TurnBreakdown[]>;
}

export async function runToolStepBench(ctx: BenchContext, opts: ToolStepOptions): Promise<BenchPart> {
  const runs: Run[] = [];
  for (let r = 0; r < opts.runs; r++) runs.push(await oneRun(ctx, opts.iterations, r));
  return report(opts, runs, await dispatcherOverhead(opts.overheadCalls));
}

async function oneRun(ctx: BenchContext, iterations: number, run: number): Promise<Run> {
  const env = {
    AGENT_GOAL: PTO_GOAL,
    MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
    VALIDATE_PROMPTS: 'false',
  };
  const ownQueue = `bench-tool-step-activity-${run}-${ctx.runId}`;
  const routed = new ToolRegistry(
    loadNativeTools()
      .all()
      .map((t) => (t.name === 'BookPTO' ? { ...t, taskQueue: ownQueue } : t)),
  );
  const workers = await Promise.all([
    createBenchAgentWorker(ctx, `tool-step-local-${run}`, env, SCRIPT),
    createBenchAgentWorker(ctx, `tool-step-activity-${run}`, env, SCRIPT, { tools: routed }),
  ]);
  if (workers[1].worker.options.taskQueue !== ownQueue) throw new Error('tool step: the routed queue is not its own');
  const running = workers.map((w) => w.worker.run());
  const ms: Run['ms'] = { local: [], activity: [] };
  try {
    const handles = await Promise.all(
      PATHS.map(async (p, i) => {
        const handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
          taskQueue: workers[i]!.worker.options.taskQueue,
          workflowId: `${workers[i]!.worker.options.taskQueue}-1`,
          args: [{ goalId: PTO_GOAL }],
        });
        await waitForGreeting(handle);
        return [p, handle] as const;
      }),
    );
    for (let i = 0; i < iterations; i++) {
      ctx.interrupts.check();
      for (const [p, handle] of i % 2 ? [...handles].reverse() : handles) ms[p].push(await step(handle, i));
    }
    const steps = Object.fromEntries(
      await Promise.all(handles.map(async ([p, h]) => [p, await confirmSteps(h)] as const)),
    ) as Run['steps'];
    await Promise.all(handles.map(([, h]) => h.signal(endChatSignal)));
    return { ms, steps };
  } finally {
    for (const w of workers) w.worker.shutdown();
    await Promise.allSettled(running);
    await Promise.all(workers.map((w) => w.close()));
  }
}

/** One booking proposed (untimed), then the approval until the agent answers (timed). */
async function step(handle: WorkflowHandle, i: number): Promise<number> {
  // A day each time, spread over the year: a booking is refused only for want of hours, which is a step all the same.
  const day = new Date(Date.UTC(2027, 0, 4 + i)).toISOString().slice(0, 10);
  const proposal = await handle.executeUpdate(promptUpdate, { args: [`bench: book ${day} for ada@example.com`] });
  if (proposal.pendingToolCall?.call.tool !== 'BookPTO') throw new Error(`tool step: no approval asked (${day})`);
  const began = performance.now();
  const reply = await handle.executeUpdate(confirmUpdate, { args: [{ approve: true }], updateId: `confirm-${i}` });
  const ms = performance.now() - began;
  if (reply.reply !== 'Done.' || reply.pendingToolCall) throw new Error(`tool step: ${JSON.stringify(reply)}`);
  return ms;
}

/** The confirm updates' timelines, from the history. */
async function confirmSteps(handle: WorkflowHandle): Promise<TurnBreakdown[]> {
  const spans = historyTimeline(await handle.fetchHistory()).updates;
  return spans.filter((s) => s.updateId.startsWith('confirm-')).map(turnBreakdown);
}

/** CurrentPTO through the tool dispatcher vs its bare run, ms per call (p50 of each). */
async function dispatcherOverhead(calls: number): Promise<{ dispatched: Summary; bare: Summary }> {
  const tools = loadNativeTools();
  const ctx = { store: new MockStore(), now: () => new Date(), services: {} as never };
  const dispatch = createToolDispatcher(tools, ctx);
  const tool = tools.get('CurrentPTO')!;
  const args = { email: 'ada@example.com' };
  const env = new MockActivityEnvironment({ activityType: 'CurrentPTO' }, { logger: new DefaultLogger('ERROR') });
  const dispatched: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < calls; i++) {
    let began = performance.now();
    await env.run(dispatch, args);
    dispatched.push(performance.now() - began);
    began = performance.now();
    await tool.run(tool.input.parse(args), ctx);
    bare.push(performance.now() - began);
  }
  return { dispatched: summarize(dispatched.slice(calls / 10)), bare: summarize(bare.slice(calls / 10)) };
}

function report(opts: ToolStepOptions, runs: Run[], overhead: { dispatched: Summary; bare: Summary }): BenchPart {
  const spread = (p: ToolPath) => summarize(runs.map((r) => summarize(r.ms[p]).p50));
  const s = { local: spread('local'), activity: spread('activity') };
  const ratio = s.local.p50 / s.activity.p50;
  const three = (x: Summary) => `${formatMs(x.min)} / ${formatMs(x.p50)} / ${formatMs(x.max)}`;
  const extra = overhead.dispatched.p50 - overhead.bare.p50;
  const med = (xs: number[]) => summarize(xs).p50;
  const lines = [
    '',
    `A tool step after an approval (confirm → reply, BookPTO): ${opts.runs} run(s) of ${opts.iterations} interleaved steps; p50 of each run, min / median / max`,
    '',
    '| path | p50 ms | WFTs | WFT dispatch | WFT on worker | activity dispatch | activities | on server | note |',
    '|---|---|---|---|---|---|---|---|---|',
    ...PATHS.map((p) => {
      const b = runs.flatMap((r) => r.steps[p]);
      const note =
        p === 'local'
          ? `${ratio.toFixed(2)}× before; target ≤ ${STEP_TARGET}: ${judge('tool step after an approval, local activity / before', ratio, STEP_TARGET, { unit: '×' })}`
          : '';
      return `| ${LABEL[p]} | ${three(s[p])} | ${med(b.map((x) => x.wfts))} | ${formatMs(med(b.map((x) => x.wftDispatch)))} | ${formatMs(med(b.map((x) => x.wftOnWorker)))} | ${formatMs(med(b.map((x) => x.activityDispatch)))} | ${formatMs(med(b.map((x) => x.activities)))} | ${formatMs(med(b.map((x) => x.onServer)))} | ${note} |`;
    }),
    '',
    `A native tool's own overhead (CurrentPTO, in-process, ${opts.overheadCalls} calls): through the dispatcher ${formatMs(overhead.dispatched.p50)} ms p50, bare ${formatMs(overhead.bare.p50)} ms: ${formatMs(extra)} ms above; target ≤ ${OVERHEAD_TARGET_MS}: ${judge("a native tool's overhead through the dispatcher", extra, OVERHEAD_TARGET_MS, { unit: 'ms' })}`,
  ];
  return {
    text: lines.join('\n'),
    json: {
      iterations: opts.iterations,
      runs: runs.map((r) => ({ local: r.ms.local.map(round), activity: r.ms.activity.map(round) })),
      local: roundSummary(s.local),
      activity: roundSummary(s.activity),
      ratio: round(ratio),
      target: STEP_TARGET,
      met: ratio <= STEP_TARGET,
      overhead: {
        dispatched: roundSummary(overhead.dispatched),
        bare: roundSummary(overhead.bare),
        extraMs: round(extra),
        targetMs: OVERHEAD_TARGET_MS,
        met: extra <= OVERHEAD_TARGET_MS,
      },
    },
  };
}
