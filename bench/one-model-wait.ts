// One model wait per turn (issue 11): with a model of fixed latency L, a text turn with prompt validation on should
// take one L plus overhead, not two. Measured two ways in one run, interleaved:
// - end to end on Temporal: a text turn with VALIDATE_PROMPTS on (vetAndPlan) and with it off (planTurn), same model;
// - the activities alone: the check then the plan in a row (what runs recorded before one-model-wait still do) vs
//   vetAndPlan, so the serial figure is measured, not remembered.
import { performance } from 'node:perf_hooks';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createLlmActivities } from '../activities/llm/llm-activities';
import { ScriptedModel } from '../activities/llm/scripted-model';
import { loadGoals } from '../goals/goal-registry';
import { AgentGoalWorkflow } from '../workflows';
import { endChatSignal, promptUpdate } from '../core/messages';
import type { BenchContext, BenchPart } from './context';
import { delayed, delayedScripted } from './latency-model';
import type { OneModelWaitOptions } from './options';
import { formatMs, round, roundSummary, summarize, waitForGreeting, type Summary } from './stats';
import { createBenchAgentWorker } from './workers';

const REPLY = 'You have plenty of paid time off left this year.';
const SCRIPT = {
  rules: [
    { task: 'validate' as const, user: '.', reply: { json: { valid: true } } },
    { user: '^Greet the user', reply: { text: 'Hi!' } },
    { user: 'how much', reply: { text: REPLY } },
  ],
};

export async function runOneModelWaitBench(ctx: BenchContext, opts: OneModelWaitOptions): Promise<BenchPart> {
  const model = delayedScripted(opts.latencyMs, new ScriptedModel(SCRIPT));
  const env = { AGENT_GOAL: 'goal_hr_pto', MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json' };
  const workers = await Promise.all(
    (['on', 'off'] as const).map((v) =>
      createBenchAgentWorker(ctx, `omw-${v}`, { ...env, VALIDATE_PROMPTS: v === 'on' ? 'true' : 'false' }, model),
    ),
  );
  const queues = { on: workers[0].worker.options.taskQueue, off: workers[1].worker.options.taskQueue };
  const runs = workers.map((w) => w.worker.run());
  const samples: Record<'on' | 'off' | 'serial' | 'concurrent', number[]> = {
    on: [],
    off: [],
    serial: [],
    concurrent: [],
  };
  try {
    const handles = await Promise.all(
      (['on', 'off'] as const).map(async (v) => {
        const handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
          taskQueue: queues[v],
          workflowId: `${queues[v]}-1`,
          args: [{ goalId: 'goal_hr_pto' }],
        });
        await waitForGreeting(handle);
        return [v, handle] as const;
      }),
    );
    const llm = createLlmActivities({
      model: delayed(opts.latencyMs, new ScriptedModel(SCRIPT)),
      provider: 'scripted',
    });
    const goal = loadGoals().resolve('goal_hr_pto');
    const request = {
      goal,
      tools: [],
      summary: '',
      agents: [],
      messages: [{ kind: 'user' as const, text: 'how much PTO?', promptId: 1 }],
      prompt: 'how much PTO?',
    };
    const activity = new MockActivityEnvironment(
      { scheduleToCloseTimeoutMs: 0 },
      { logger: new DefaultLogger('ERROR') },
    );
    for (let i = 0; i < opts.iterations; i++) {
      ctx.interrupts.check();
      // Interleaved, the starting variant rotating: drift on a shared machine falls on both alike.
      for (const [v, handle] of i % 2 ? [...handles].reverse() : handles) {
        const began = performance.now();
        const reply = await handle.executeUpdate(promptUpdate, { args: ['how much PTO do I have?'] });
        if (reply.reply !== REPLY) throw new Error(`one model wait (${v}): unexpected reply ${JSON.stringify(reply)}`);
        samples[v].push(performance.now() - began);
      }
      let began = performance.now();
      await activity.run(llm.validatePrompt, request);
      await activity.run(llm.planTurn, request);
      samples.serial.push(performance.now() - began);
      began = performance.now();
      await activity.run(llm.vetAndPlan, request);
      samples.concurrent.push(performance.now() - began);
    }
    await Promise.all(handles.map(([, h]) => h.signal(endChatSignal)));
  } finally {
    for (const w of workers) w.worker.shutdown();
    await Promise.allSettled(runs);
    await Promise.all(workers.map((w) => w.close()));
  }
  return report(opts, samples);
}

function report(
  opts: OneModelWaitOptions,
  samples: Record<'on' | 'off' | 'serial' | 'concurrent', number[]>,
): BenchPart {
  const s = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)])) as Record<
    keyof typeof samples,
    Summary
  >;
  const L = opts.latencyMs;
  const target = L + 80;
  const row = (name: string, x: Summary, note: string) =>
    `| ${name} | ${formatMs(x.p50)} | ${formatMs(x.p95)} | ${note} |`;
  const text = [
    '',
    `One model wait per turn: model latency L = ${L} ms per call, ${opts.iterations} interleaved iterations`,
    '',
    '| path | p50 ms | p95 ms | note |',
    '|---|---|---|---|',
    row(
      'text turn, validation on (vetAndPlan)',
      s.on,
      `target ≤ L + 80 = ${target}: ${s.on.p50 <= target ? 'met' : 'NOT met'}; ${(s.on.p50 / s.off.p50).toFixed(2)}× validation off`,
    ),
    row('text turn, validation off (planTurn)', s.off, 'one model call'),
    row('activities: validatePrompt then planTurn', s.serial, 'runs recorded before one-model-wait'),
    row('activities: vetAndPlan', s.concurrent, `${(s.concurrent.p50 / s.serial.p50).toFixed(2)}× the serial pair`),
  ].join('\n');
  return {
    text,
    json: {
      latencyMs: L,
      iterations: opts.iterations,
      targetMs: target,
      met: s.on.p50 <= target,
      validationOn: roundSummary(s.on),
      validationOff: roundSummary(s.off),
      serialActivities: roundSummary(s.serial),
      vetAndPlanActivity: roundSummary(s.concurrent),
      ratioOnToOff: round(s.on.p50 / s.off.p50),
      ratioConcurrentToSerial: round(s.concurrent.p50 / s.serial.p50),
    },
  };
}
