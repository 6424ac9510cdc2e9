// A2A (issue 40): what a remote agent costs a turn, against a delegate of our own. The orchestrator's turn asks one
// agent to echo a word through AskAgent, interleaved round-robin: a remote A2A agent (testkit/a2a-remote-agent.ts,
// @a2a-js/sdk alone, a process of its own on this machine: one askRemoteAgent activity sending the message and
// following the task) against one of our agents as a delegate (a child conversation on the same worker). The ratio is
// the figure; both ask an agent that answers at once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ScriptInput } from '../activities/llm/scripted-model';
import { startRemoteAgent } from '../testkit/a2a-remote';
import { agentConversations, type AgentConversationSpec } from './agent-conversation';
import type { BenchContext, BenchPart } from './context';
import type { A2aOptions } from './options';
import { roundRobin } from './round-robin';
import { SessionRotation } from './session-rotation';
import { formatMs, ratio, round, roundSummary, summarize, table } from './stats';
import { createBenchAgentWorker, runWorkers } from './workers';

const GOAL = 'goal_orchestrator';
const REPLY = 'Delegate said: echo: ping';

const ask = (goalId: string) => ({ toolCalls: [{ tool: 'AskAgent', args: { goalId, task: 'ping' } }] });
const script: ScriptInput = {
  rules: [
    { goal: GOAL, user: '^Greet the user', reply: { text: 'Orchestrator here.' } },
    { goal: GOAL, user: '^bench: remote', reply: ask('a2a:helper') },
    { goal: GOAL, user: '^bench: local', reply: ask('goal_general') },
    { goal: GOAL, afterTool: 'AskAgent', outcome: 'ok', reply: { text: 'Delegate said: {{result.summary}}' } },
    // The delegate of our own, in task mode: the task is its first prompt.
    { goal: 'goal_general', user: '^ping$', reply: { text: 'echo: ping' } },
  ],
};

const SPECS: (AgentConversationSpec & { key: string })[] = [
  {
    key: 'remote',
    name: 'AskAgent → remote A2A agent',
    slug: 'a2a-remote',
    goalId: GOAL,
    prompt: 'bench: remote',
    reply: REPLY,
    tool: 'AskAgent',
  },
  {
    key: 'local',
    name: 'AskAgent → our delegate',
    slug: 'a2a-local',
    goalId: GOAL,
    prompt: 'bench: local',
    reply: REPLY,
    tool: 'AskAgent',
  },
];

export async function runA2aBench(ctx: BenchContext, opts: A2aOptions): Promise<BenchPart> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-a2a-'));
  const remote = await startRemoteAgent();
  const cleanups: (() => Promise<void>)[] = [() => remote.end('SIGTERM')];
  try {
    const registry = path.join(dir, 'registry.json');
    writeFileSync(registry, JSON.stringify({ mcpServers: {}, a2aAgents: { helper: { card: remote.ready[1] } } }));
    const env = { AGENT_GOAL: GOAL, VALIDATE_PROMPTS: 'false', MCP_ENDPOINTS_FILE: registry };
    const agent = await createBenchAgentWorker(ctx, 'a2a', env, script);
    const worker = runWorkers(ctx, [agent.worker], [agent.close], 'the A2A bench worker');
    cleanups.push(worker.stop);
    const policy = { turnsPerSession: opts.turnsPerConversation, warmupApart: true };
    const scenarios = SPECS.map((spec) => ({
      ...spec,
      sampler: new SessionRotation(
        policy,
        agentConversations(ctx.client, agent.worker.options.taskQueue, ctx.runId, spec),
      ),
    }));
    process.stderr.write(`bench (A2A): ${opts.warmup} warm-up + ${opts.turns} timed turns, 2 ways interleaved\n`);
    const started = performance.now();
    const measure = async () => {
      await roundRobin(
        scenarios.map((s) => s.sampler),
        {
          warmup: opts.warmup,
          iterations: opts.turns,
          interrupts: ctx.interrupts,
          progress: { unit: 'turns per way', every: 50 },
        },
      );
      for (const s of scenarios) await s.sampler.finish();
    };
    await Promise.race([measure(), worker.died]).catch(async (err: unknown) => {
      await Promise.all(scenarios.map((s) => s.sampler.abort()));
      throw err;
    });
    return render(opts, scenarios, performance.now() - started);
  } catch (err) {
    ctx.interrupts.check();
    throw err;
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

function render(
  opts: A2aOptions,
  scenarios: (AgentConversationSpec & { key: string; sampler: SessionRotation })[],
  ms: number,
): BenchPart {
  const stats = new Map(scenarios.map((s) => [s.key, summarize(s.sampler.samples)]));
  const remote = stats.get('remote')!;
  const local = stats.get('local')!;
  const text = [
    '',
    `A2A: the orchestrator asks an agent to echo a word (AskAgent), a remote A2A agent against our own delegate, ` +
      `interleaved; scripted model (no latency), one worker; ${opts.warmup} warm-up turns each discarded.`,
    table([
      ['turn', 'n', 'p50 ms', 'p95 ms', 'mean ms'],
      ...scenarios.map((s) => {
        const st = stats.get(s.key)!;
        return [s.name, String(st.n), formatMs(st.p50), formatMs(st.p95), formatMs(st.mean)];
      }),
    ]),
    `Ratio remote:local (p50 / p95): ${ratio(remote.p50, local.p50)} / ${ratio(remote.p95, local.p95)}; ` +
      `measuring ${round(ms / 1000, 1)} s.`,
  ].join('\n');
  const figures = {
    benchmark: 'A2A round trip against a direct AskAgent delegation',
    options: opts,
    results: scenarios.map((s) => ({
      key: s.key,
      scenario: s.name,
      ms: roundSummary(stats.get(s.key)!),
      samplesMs: s.sampler.samples.map((x) => round(x)),
    })),
    ratios: { 'remote:local': { p50: round(remote.p50 / local.p50, 4), p95: round(remote.p95 / local.p95, 4) } },
  };
  return { text, figures };
}
