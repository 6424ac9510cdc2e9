// Unattended runs (issue 41): how long after a schedule's due time, and after a webhook delivery is sent, the run's
// first model call starts. Schedules: a schedule every second (Temporal's own, `allow-all` so no run waits for
// another), its due time read from the run's id (`sched-<name>-<time due>`). Triggers: signed deliveries POSTed one
// after another to the API (in this process) on the same server. The model call's start is the first model
// activity's start in the run's history (the worker took it up); the scripted model answers at once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { ScriptInput } from '../activities/llm/scripted-model';
import { AgentClient } from '../client/agent-client';
import { Schedules } from '../client/schedules';
import { unattendedRuns } from '../client/unattended-runs';
import { activityStepOf } from '../core/activity-steps';
import { openBlobStore, readBlobSettings } from '../blobs';
import { createStreamBus } from '../stream';
import type { BenchContext, BenchPart } from './context';
import type { UnattendedOptions } from './part-options';
import { formatMs, round, roundSummary, summarize, table } from './stats';
import { createBenchAgentWorker, runWorkers } from './workers';
import { sendDelivery, startTriggerApi } from '../testkit/trigger-api';

const GOAL = 'goal_general';
const PROMPT = 'bench: unattended';
const script: ScriptInput = { rules: [{ user: `^${PROMPT}`, reply: { text: 'done' } }] };
const SECRET = 'bench-unattended-secret';

export async function runUnattendedBench(ctx: BenchContext, opts: UnattendedOptions): Promise<BenchPart> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-unattended-'));
  const blobDir = path.join(dir, 'blobs');
  const env = { AGENT_GOAL: GOAL, VALIDATE_PROMPTS: 'false', BLOB_DIR: blobDir, MCP_ENDPOINTS_FILE: '/nonexistent' };
  const agent = await createBenchAgentWorker(ctx, 'unattended', env, script);
  const worker = runWorkers(ctx, [agent.worker], [agent.close], 'the unattended-runs bench worker');
  const taskQueue = agent.worker.options.taskQueue;
  try {
    const total = opts.warmup + opts.runs;
    process.stderr.write(`bench (unattended): ${total} scheduled runs, then ${total} webhook deliveries\n`);
    const scheduled = await Promise.race([scheduleDelays(ctx, taskQueue, total), worker.died]);
    const triggered = await Promise.race([triggerDelays(ctx, taskQueue, dir, blobDir, total), worker.died]);
    return render(opts, scheduled.slice(opts.warmup), triggered.slice(opts.warmup));
  } finally {
    await worker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One run's delay to its first model call, and the part of it after its workflow started (ours, not the sender's
 * or the scheduler's). */
interface Delay {
  total: number;
  fromStart: number;
}

/** Due time → first model call, for `n` runs of a schedule due every second. */
async function scheduleDelays(ctx: BenchContext, taskQueue: string, n: number): Promise<Delay[]> {
  const schedules = new Schedules(ctx.client, taskQueue);
  const name = `bench-${ctx.runId.replace(/[^A-Za-z0-9-]/g, '')}`;
  await schedules.create({ name, goalId: GOAL, prompt: PROMPT, every: '1s', overlap: 'allow-all' });
  try {
    let runs = await schedules.runs(name, n + 5);
    while (runs.filter((r) => r.state === 'completed').length < n) {
      ctx.interrupts.check();
      await new Promise((r) => setTimeout(r, 500));
      runs = await schedules.runs(name, n + 5);
    }
  } finally {
    await schedules.delete(name);
  }
  // The schedule is gone: its runs are read by their ids.
  const done = (await unattendedRuns(ctx.client, 'schedule', { name, limit: 1000 }))
    .filter((r) => r.state === 'completed')
    .reverse()
    .slice(0, n);
  return Promise.all(
    done.map(async (r) => {
      const due = Date.parse(r.conversationId.slice(-20));
      const call = await firstModelCall(ctx.client, r.conversationId);
      return { total: call - due, fromStart: call - Date.parse(r.startedAt) };
    }),
  );
}

/** Delivery sent → first model call, for `n` deliveries one after another. */
async function triggerDelays(
  ctx: BenchContext,
  taskQueue: string,
  dir: string,
  blobDir: string,
  n: number,
): Promise<Delay[]> {
  const registry = path.join(dir, 'triggers.json');
  const entry = { goal: GOAL, prompt: PROMPT, signature: 'github', secret: '${env:BENCH_UNATTENDED_SECRET}' };
  writeFileSync(registry, JSON.stringify({ triggers: { bench: entry } }));
  process.env.BENCH_UNATTENDED_SECRET = SECRET;
  const bus = createStreamBus();
  const agents = new AgentClient(ctx.client, taskQueue, {
    files: openBlobStore(readBlobSettings({ BLOB_DIR: blobDir }, blobDir)),
  });
  const api = await startTriggerApi(agents, bus, { file: registry });
  try {
    const delays: Delay[] = [];
    for (let i = 0; i < n; i++) {
      ctx.interrupts.check();
      const raw = JSON.stringify({ seq: i });
      const delivery = `${ctx.runId.replace(/[^A-Za-z0-9-]/g, '')}-${i}`;
      const sent = Date.now();
      const answer = await sendDelivery(api.url, 'bench', 'github', SECRET, raw, {
        headers: { 'x-github-delivery': delivery },
        at: sent,
      });
      const conversationId = answer.body.conversationId as string;
      const handle = ctx.client.workflow.getHandle(conversationId);
      await handle.result();
      const call = await firstModelCall(ctx.client, conversationId);
      delays.push({ total: call - sent, fromStart: call - (await handle.describe()).startTime.getTime() });
    }
    const runs = await unattendedRuns(ctx.client, 'trigger', { name: 'bench', limit: n + 1 });
    if (runs.length !== n) throw new Error(`${n} deliveries made ${runs.length} runs`);
    return delays;
  } finally {
    await api.close();
    await bus.close();
    delete process.env.BENCH_UNATTENDED_SECRET;
  }
}

/** When the run's first model activity started on the worker (ms since the epoch). */
async function firstModelCall(client: Client, workflowId: string): Promise<number> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const model = events.find(
    (e) => activityStepOf(e.activityTaskScheduledEventAttributes?.activityType?.name)?.kind === 'model',
  );
  const started = events.find(
    (e) => e.activityTaskStartedEventAttributes?.scheduledEventId?.toString() === model?.eventId?.toString(),
  );
  const t = started?.eventTime;
  if (!t) throw new Error(`${workflowId}: no model call in its history`);
  return Number(t.seconds) * 1000 + Math.round((t.nanos ?? 0) / 1e6);
}

function render(opts: UnattendedOptions, scheduled: Delay[], triggered: Delay[]): BenchPart {
  const rows = [
    { key: 'schedule', name: 'schedule due → first model call', samples: scheduled.map((d) => d.total) },
    { key: 'schedule-run', name: '  of which: run started → call', samples: scheduled.map((d) => d.fromStart) },
    { key: 'trigger', name: 'webhook sent → first model call', samples: triggered.map((d) => d.total) },
    { key: 'trigger-run', name: '  of which: run started → call', samples: triggered.map((d) => d.fromStart) },
  ].map((r) => ({ ...r, stats: summarize(r.samples) }));
  const text = [
    '',
    `Unattended runs: from a schedule's due time (every 1 s, allow-all) and from a signed webhook delivery (sent one ` +
      `after another to the API) to the run's first model call (its activity taken up by the worker); scripted model, ` +
      `one worker; ${opts.warmup} warm-up runs each discarded.`,
    table([
      ['delay', 'n', 'p50 ms', 'p95 ms', 'max ms'],
      ...rows.map((r) => [
        r.name,
        String(r.stats.n),
        formatMs(r.stats.p50),
        formatMs(r.stats.p95),
        formatMs(r.stats.max),
      ]),
    ]),
  ].join('\n');
  const figures = {
    benchmark: 'Delay from a schedule due time or a webhook delivery to the run first model call',
    options: opts,
    results: rows.map((r) => ({
      key: r.key,
      scenario: r.name,
      ms: roundSummary(r.stats),
      samplesMs: r.samples.map((x) => round(x)),
    })),
  };
  return { text, figures };
}
