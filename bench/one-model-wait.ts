// One model wait per turn (issues 11 and 29): with a model of fixed latency L, a text turn with prompt validation on
// should take one L plus little: target ≤ L + 50 ms p50 from the client, at L = 100 and L = 300. Each L is measured
// in several runs (min / median / max of the runs' p50s), interleaved in each:
// - end to end on Temporal: a text turn with VALIDATE_PROMPTS on (vetAndPlan) and with it off (planTurn), same model,
//   in-process; and validation on with the model over HTTP (a local Chat Completions server streaming its reply after
//   L ms, the `openai-compatible` provider), as a real deploy runs it — each with where the server's time went (history
//   timeline) and what the LLM activity did around its model calls. (The activities alone, the check then the plan in
//   a row against vetAndPlan, were measured until the figure was settled: bench/README.md.)
import { performance } from 'node:perf_hooks';
import { ScriptedModel } from '../activities/llm/scripted-model';
import { AgentGoalWorkflow } from '../workflows';
import { endChatSignal, promptUpdate } from '../core/messages';
import type { BenchContext, BenchPart } from './context';
import { delayed } from './latency-model';
import { stepTimes, timedModel, type ModelCallTimes, type StepTimes } from './model-window';
import type { OneModelWaitOptions } from './options';
import { formatMs, round, roundSummary, summarize, waitForGreeting, type Summary } from './stats';
import { createStreamBus } from '../stream';
import { completion, startFakeChatCompletions, streamed } from '../testkit/fake-chat-completions';
import { createBenchAgentWorker, createStreamingBenchAgentWorker } from './workers';
import { judge } from './verdict';

const REPLY = 'You have plenty of paid time off left this year.';
const SCRIPT = {
  rules: [
    { task: 'validate' as const, user: '.', reply: { json: { valid: true } } },
    { user: '^Greet the user', reply: { text: 'Hi!' } },
    { user: 'how much', reply: { text: REPLY } },
  ],
};
/** What a turn may cost beyond the model's latency, from the client (issue 29). */
const OVERHEAD_TARGET_MS = 50;
/** A workflow task's time on the worker in a text turn (issue 29). */
const TASK_TARGET_MS = 8;

/** The turns through Temporal: in-process model with validation on and off, and over HTTP with it on. */
const TURNS = ['on', 'off', 'http'] as const;
type TurnPath = (typeof TURNS)[number];
interface Run {
  samples: Record<TurnPath, number[]>;
  steps: Record<TurnPath, StepTimes[]>;
}

export async function runOneModelWaitBench(ctx: BenchContext, opts: OneModelWaitOptions): Promise<BenchPart> {
  const byLatency: { latencyMs: number; runs: Run[] }[] = [];
  for (const latencyMs of opts.latenciesMs) {
    const runs: Run[] = [];
    for (let r = 0; r < opts.runs; r++) runs.push(await oneRun(ctx, latencyMs, opts.iterations, `${latencyMs}-${r}`));
    byLatency.push({ latencyMs, runs });
  }
  return report(opts, byLatency);
}

async function oneRun(ctx: BenchContext, latencyMs: number, iterations: number, tag: string): Promise<Run> {
  const calls: ModelCallTimes[] = [];
  const model = timedModel(delayed(latencyMs, new ScriptedModel(SCRIPT)), calls);
  const resolved = { model, provider: 'scripted' as const, modelId: `latency-${latencyMs}`, description: 'bench' };
  const env = { AGENT_GOAL: 'goal_hr_pto', MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json' };
  const http = await httpModel(latencyMs);
  const bus = createStreamBus();
  const workers = await Promise.all([
    ...(['on', 'off'] as const).map((v) =>
      createBenchAgentWorker(ctx, `omw-${tag}-${v}`, { ...env, VALIDATE_PROMPTS: String(v === 'on') }, resolved),
    ),
    createStreamingBenchAgentWorker(
      ctx,
      `omw-${tag}-http`,
      { ...env, VALIDATE_PROMPTS: 'true', LLM_MODEL: 'openai-compatible:bench', LLM_BASE_URL: http.baseUrl },
      bus,
    ),
  ]);
  const queueOf = (v: TurnPath) => workers[TURNS.indexOf(v)]!.worker.options.taskQueue;
  const running = workers.map((w) => w.worker.run());
  const samples: Record<TurnPath, number[]> = { on: [], off: [], http: [] };
  try {
    const handles = await Promise.all(
      TURNS.map(async (v) => {
        const handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
          taskQueue: queueOf(v),
          workflowId: `${queueOf(v)}-1`,
          args: [{ goalId: 'goal_hr_pto' }],
        });
        await waitForGreeting(handle);
        return [v, handle] as const;
      }),
    );
    for (let i = 0; i < iterations; i++) {
      ctx.interrupts.check();
      // Interleaved, the starting variant rotating: drift on a shared machine falls on both alike.
      for (const [v, handle] of i % 2 ? [...handles].reverse() : handles) {
        const began = performance.now();
        const reply = await handle.executeUpdate(promptUpdate, { args: ['how much PTO do I have?'] });
        if (reply.reply !== REPLY) throw new Error(`one model wait (${v}): unexpected reply ${JSON.stringify(reply)}`);
        samples[v].push(performance.now() - began);
      }
    }
    await Promise.all(handles.map(([, h]) => h.signal(endChatSignal)));
    const steps = Object.fromEntries(
      await Promise.all(
        handles.map(
          async ([v, h]) =>
            [v, stepTimes(await h.fetchHistory(), iterations, v === 'http' ? http.calls : calls)] as const,
        ),
      ),
    ) as Run['steps'];
    return { samples, steps };
  } finally {
    for (const w of workers) w.worker.shutdown();
    await Promise.allSettled(running);
    await Promise.all(workers.map((w) => w.close()));
    await bus.close();
    await http.close();
  }
}

/** A Chat Completions server answering every request `latencyMs` after it arrives (a plan's reply streamed then, in
 * one burst), noting when each request arrived and when its answer was written out. */
async function httpModel(latencyMs: number) {
  const calls: ModelCallTimes[] = [];
  const server = await startFakeChatCompletions(async (body) => {
    const call = { start: Date.now(), end: NaN };
    calls.push(call);
    if (!body.tools) {
      await new Promise((r) => setTimeout(r, latencyMs));
      call.end = Date.now();
      return completion({ text: '{"valid": true}' });
    }
    return streamed(completion({ text: REPLY }), { ttftMs: latencyMs, onWrite: () => (call.end = Date.now()) });
  });
  return { baseUrl: server.baseUrl, calls, close: () => server.close() };
}

const median = (xs: number[]) => summarize(xs).p50;
/** The runs' p50s of `path`: min / median / max. */
const spread = (runs: Run[], path: TurnPath) => summarize(runs.map((r) => summarize(r.samples[path]).p50));
const threeOf = (s: Summary) => `${formatMs(s.min)} / ${formatMs(s.p50)} / ${formatMs(s.max)}`;

function report(opts: OneModelWaitOptions, byLatency: { latencyMs: number; runs: Run[] }[]): BenchPart {
  const lines = [
    '',
    `One model wait per turn: ${opts.runs} run(s) of ${opts.iterations} interleaved turns per latency; p50 of each run, min / median / max`,
    '',
    '| L ms | path | p50 ms (min / median / max of runs) | note |',
    '|---|---|---|---|',
  ];
  const json: Record<string, unknown>[] = [];
  for (const { latencyMs: L, runs } of byLatency) {
    const on = spread(runs, 'on');
    const off = spread(runs, 'off');
    const http = spread(runs, 'http');
    const target = L + OVERHEAD_TARGET_MS;
    const verdictOn = judge(`one model wait: text turn, validation on, L = ${L}`, on.p50, target, { unit: 'ms' });
    const verdictHttp = judge(`one model wait: text turn over HTTP, L = ${L}`, http.p50, target, { unit: 'ms' });
    lines.push(
      `| ${L} | text turn, validation on (vetAndPlan) | ${threeOf(on)} | target ≤ L + ${OVERHEAD_TARGET_MS} = ${target}: ${verdictOn} (L + ${formatMs(on.p50 - L)}) |`,
      `| ${L} | text turn, validation off (planTurn) | ${threeOf(off)} | one model call: L + ${formatMs(off.p50 - L)} |`,
      `| ${L} | text turn, validation on, model over HTTP (streamed) | ${threeOf(http)} | target ≤ ${target}: ${verdictHttp} (L + ${formatMs(http.p50 - L)}) |`,
    );
    json.push({
      latencyMs: L,
      targetMs: target,
      met: verdictOn === 'met',
      metOverHttp: verdictHttp === 'met',
      validationOn: roundSummary(on),
      overHttp: roundSummary(http),
      validationOff: roundSummary(off),
      steps: Object.fromEntries(TURNS.map((v) => [v, stepSummary(runs.flatMap((r) => r.steps[v]))])),
      runs: runs.map((r) => Object.fromEntries(Object.entries(r.samples).map(([k, v]) => [k, v.map(round)]))),
    });
  }
  lines.push(
    '',
    'Where a text turn goes (medians over all runs, ms): the server from the update to its completion; workflow tasks waiting for the worker (dispatch) and on it; the LLM activity waiting to start, and inside it before its first model request, the model calls, and after the last answer; the rest between intervals',
    '',
    '| L ms | validation | client | on server | WFTs | WFT dispatch | WFT on worker | activity dispatch | before model | model | after model | other |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const { latencyMs: L, runs } of byLatency) {
    for (const v of TURNS) {
      const s = stepSummary(runs.flatMap((r) => r.steps[v]));
      const client = median(runs.flatMap((r) => r.samples[v]));
      lines.push(
        `| ${L} | ${v === 'http' ? 'on, over HTTP' : v} | ${formatMs(client)} | ${formatMs(s.onServer)} | ${s.wfts} | ${formatMs(s.wftDispatch)} | ${formatMs(s.wftOnWorker)} | ${formatMs(s.activityDispatch)} | ${formatMs(s.beforeModel)} | ${formatMs(s.model)} | ${formatMs(s.afterModel)} | ${formatMs(s.other)} |`,
      );
    }
  }
  // A workflow task's time on the worker, each: the text turns' (validation on, in-process) per task.
  const perTask = median(
    byLatency.flatMap(({ runs }) => runs.flatMap((r) => r.steps.on.map((s) => s.wftOnWorker / s.wfts))),
  );
  const verdictTask = judge('a workflow task on the worker, text turn', perTask, TASK_TARGET_MS, { unit: 'ms' });
  lines.push(
    '',
    `A workflow task on the worker, text turn (validation on): ${formatMs(perTask)} ms p50 per task; target ≤ ${TASK_TARGET_MS}: ${verdictTask}`,
  );
  return {
    text: lines.join('\n'),
    figures: {
      targetOverheadMs: OVERHEAD_TARGET_MS,
      byLatency: json,
      workflowTaskMs: round(perTask),
      workflowTaskTargetMs: TASK_TARGET_MS,
      workflowTaskMet: verdictTask === 'met',
    },
  };
}

/** The median of each interval over `steps`. */
function stepSummary(steps: StepTimes[]): StepTimes {
  const keys = Object.keys(steps[0] ?? {}) as (keyof StepTimes)[];
  return Object.fromEntries(keys.map((k) => [k, round(median(steps.map((s) => s[k])))])) as unknown as StepTimes;
}
