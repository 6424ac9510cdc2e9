// Delegation (issue 12): what running delegates side by side buys, and what one delegation costs. On the bench's server,
// with in-process agent workers built as production builds them (VALIDATE_PROMPTS off: only planning calls the model):
// (a) a lead agent's plan of four delegates, each running CurrentPTO, as four AskAgent calls in one step (side by side)
//     and as one AskAgent per step, four steps in a row (one after the other), with a model answering at once and one
//     answering L ms later (DelegationOptions.latencyMs); (b) CurrentPTO run by the lead itself vs by a delegate
//     (AskAgent → child conversation → CurrentPTO), zero-latency model. Goals live in a GOALS_DIR of the run's own.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { WorkflowHandle } from '@temporalio/client';
import { NOTE_PREFIX } from '../activities/llm/model-messages';
import { ScriptedModel, type ScriptedCallInfo, type ScriptInput } from '../activities/llm/scripted-model';
import { AgentGoalWorkflow } from '../workflows';
import { ASK_AGENT } from '../core/builtin-specs';
import { endChatSignal, promptUpdate } from '../core/messages';
import type { Goal } from '../core/types';
import type { BenchContext, BenchPart } from './context';
import { delayedScripted } from './latency-model';
import type { DelegationOptions } from './options';
import { delegationJson, delegationText, type DelegationSeries } from './report/delegation-report';
import { waitForGreeting } from './stats';
import { createBenchAgentWorker, runWorkers } from './workers';

const LEAD = 'bench_lead';
const DESKS = [1, 2, 3, 4].map((n) => `bench_desk_${n}`);
const EMAIL = 'ada@example.com';
const TASK = `PTO left for ${EMAIL}`;
const ANSWER = '104 hours left.';
/** A one-by-one turn adds about a hundred events to the lead's history: conversations of at most 20 such turns stay
 * well under the 4,000-event budget, so no continue-as-new (and its summary) falls inside a timed turn. */
const PLAN_TURNS_PER_CONVERSATION = 20;

const goal = (id: string, agentName: string, more: Partial<Goal>): Goal => ({
  id,
  category: 'bench',
  agentName,
  agentFriendlyDescription: `${agentName} (benchmark)`,
  description: `${agentName}: looks up paid time off.`,
  starterPrompt: 'Greet the user',
  exampleConversation: '',
  tools: ['CurrentPTO'],
  ...more,
});
const GOALS = [
  goal(LEAD, 'Lead', { delegates: ['bench_desk_*'] }),
  ...DESKS.map((id, i) => goal(id, `PTO desk ${i + 1}`, {})),
];

const ask = (goalId: string) => ({ tool: ASK_AGENT, args: { goalId, task: TASK } });
const SCRIPT: ScriptInput = {
  rules: [
    { goal: LEAD, user: '^Greet the user', reply: { text: 'Lead here.' } },
    { goal: LEAD, user: '^side by side', reply: { toolCalls: DESKS.map(ask) } },
    { goal: LEAD, user: '^direct', reply: { toolCalls: [{ tool: 'CurrentPTO', args: { email: EMAIL } }] } },
    { goal: LEAD, user: '^delegated', reply: { toolCalls: [ask(DESKS[0]!)] } },
    { goal: LEAD, afterTool: 'CurrentPTO', outcome: 'ok', reply: { text: '{{result.hoursLeft}} hours left.' } },
    { goal: LEAD, afterTool: ASK_AGENT, reply: { text: '{{results[].result.summary}}' } },
    {
      goal: DESKS,
      user: 'PTO left for (\\S+)',
      reply: { toolCalls: [{ tool: 'CurrentPTO', args: { email: '{{1}}' } }] },
    },
    { goal: DESKS, afterTool: 'CurrentPTO', outcome: 'ok', reply: { text: '{{result.hoursLeft}} hours left.' } },
  ],
};
/** The lead's steps for "one by one": the script's rules cannot count the steps of a turn, so these are picked here. */
const ONE_BY_ONE = DESKS.map((d) => new ScriptedModel({ rules: [], fallback: { toolCalls: [ask(d)] } }));

const SCRIPTED = new ScriptedModel(SCRIPT);

/** Who answers a call: the bench script, but the lead's one-by-one plan from ONE_BY_ONE. */
function answering(o: LanguageModelV3CallOptions): LanguageModelV3 {
  if ((o.providerOptions?.scripted as unknown as ScriptedCallInfo | undefined)?.goalId !== LEAD) return SCRIPTED;
  const turn = currentTurn(o.prompt);
  if (!turn.said.startsWith('one by one')) return SCRIPTED;
  const done = turn.after
    .flatMap((m) => (m.role === 'tool' ? m.content : []))
    .filter((p) => p.type === 'tool-result' && p.toolName === ASK_AGENT).length;
  return ONE_BY_ONE[done] ?? SCRIPTED;
}

/** The user's latest words (notes aside) and the messages after them: the turn's steps so far. */
function currentTurn(prompt: LanguageModelV3Prompt): { said: string; after: LanguageModelV3Prompt } {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!;
    if (m.role !== 'user') continue;
    const said = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (!said.startsWith(NOTE_PREFIX)) return { said, after: prompt.slice(i + 1) };
  }
  return { said: '', after: [] };
}

/** One timed path: a prompt said to the lead again and again, in conversations of `turnsPerConversation` turns. */
class Series implements DelegationSeries {
  readonly samples: number[] = [];
  private handle: WorkflowHandle | undefined;
  private turns = 0;
  private conversations = 0;

  constructor(
    private readonly ctx: BenchContext,
    readonly key: string,
    readonly latencyMs: number,
    private readonly queue: string,
    private readonly prompt: string,
    private readonly reply: string,
    private readonly turnsPerConversation: number,
  ) {}

  async turn(timed: boolean): Promise<void> {
    if (!this.handle || this.turns >= this.turnsPerConversation) await this.rotate();
    const began = performance.now();
    const { reply } = await this.handle!.executeUpdate(promptUpdate, { args: [this.prompt] });
    const ms = performance.now() - began;
    if (reply !== this.reply)
      throw new Error(`delegation (${this.key}, ${this.latencyMs} ms): unexpected reply ${JSON.stringify(reply)}`);
    this.turns++;
    if (timed) this.samples.push(ms);
  }

  async end(): Promise<void> {
    await this.handle?.signal(endChatSignal);
    this.handle = undefined;
  }

  /** A new conversation, started and greeted outside the timed window. */
  private async rotate(): Promise<void> {
    await this.end();
    const workflowId = `bench-delegation-${this.key}-${this.latencyMs}-${this.ctx.runId}-${++this.conversations}`;
    this.handle = await this.ctx.client.workflow.start(AgentGoalWorkflow, {
      taskQueue: this.queue,
      workflowId,
      args: [{ goalId: LEAD }],
    });
    await waitForGreeting(this.handle);
    this.turns = 0;
  }
}

export async function runDelegationBench(ctx: BenchContext, opts: DelegationOptions): Promise<BenchPart> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-delegation-'));
  for (const g of GOALS) writeFileSync(path.join(dir, `${g.id}.json`), JSON.stringify(g));
  const latencies = [...new Set([0, opts.latencyMs])];
  const env = {
    AGENT_GOAL: LEAD,
    GOALS_DIR: dir,
    VALIDATE_PROMPTS: 'false',
    MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
  };
  const agents = await Promise.all(
    latencies.map((ms) => createBenchAgentWorker(ctx, `delegation-${ms}`, env, delayedScripted(ms, answering))),
  );
  const queue = (ms: number) => agents[latencies.indexOf(ms)]!.worker.options.taskQueue;
  const running = runWorkers(
    ctx,
    agents.map((a) => a.worker),
    agents.map((a) => () => a.close()),
    'a delegation worker',
  );
  const series = (key: string, ms: number, prompt: string, reply: string, turns = opts.turnsPerConversation) =>
    new Series(ctx, key, ms, queue(ms), prompt, reply, turns);
  const planTurns = Math.min(opts.turnsPerConversation, PLAN_TURNS_PER_CONVERSATION);
  const plans = latencies.flatMap((ms) => [
    series('parallel', ms, 'side by side', Array(DESKS.length).fill(ANSWER).join(' '), planTurns),
    series('sequential', ms, 'one by one', ANSWER, planTurns),
  ]);
  const overhead = [series('direct', 0, 'direct', ANSWER), series('delegated', 0, 'delegated', ANSWER)];
  try {
    process.stderr.write(
      `bench (delegation): 4 delegates side by side vs one by one, model 0 and ${opts.latencyMs} ms; ${opts.iterations} iterations\n`,
    );
    await Promise.race([interleave(ctx, plans, opts.warmup, opts.iterations), running.died]);
    process.stderr.write(
      `bench (delegation): CurrentPTO in the lead vs through a delegate; ${opts.overheadIterations} iterations\n`,
    );
    await Promise.race([interleave(ctx, overhead, opts.warmup, opts.overheadIterations), running.died]);
    await Promise.all([...plans, ...overhead].map((s) => s.end()));
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return { text: delegationText(opts, plans, overhead), json: delegationJson(opts, plans, overhead) };
}

/** Warm-up then timed turns, the series interleaved and the first one rotated each round: drift falls on all alike. */
async function interleave(ctx: BenchContext, series: Series[], warmup: number, iterations: number): Promise<void> {
  for (let i = 0; i < warmup + iterations; i++) {
    ctx.interrupts.check();
    const shift = i % series.length;
    for (const s of [...series.slice(shift), ...series.slice(0, shift)]) await s.turn(i >= warmup);
  }
}
