// The run view's cost (issue 26): what live run views (GET /api/conversations/{id}/run/events) ask of Temporal and of
// the API, and how late they show what happened. Views of conversations whose boss agent hands two tasks to two
// delegates at once are held open (in a process of their own) on the API (alone in its own process), over many
// conversations and all over one, for a window while the conversations take turns back to back and then one while
// they wait for the user; then the same views of the plain events stream (/events, the feed polled by query) for the
// ratio. After each row the views close and the API must stop asking. Counts: options.ts (RunViewOptions).
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { rmSync } from 'node:fs';
import { ScriptedModel } from '../activities/llm/scripted-model';
import type { BenchContext, BenchPart } from './context';
import { delayedScripted } from './latency-model';
import type { RunViewOptions } from './options';
import { renderRunViewBench, type Reading, type ShapeResult } from './report/run-view-report';
import { startRunViewApi, type RunViewApi } from './run-view-api';
import { findServerRequests, type ServerRequests } from './run-view-metrics';
import { BOSS_GOAL, BOSS_SCRIPT, bossGoalsDir } from './run-view-agents';
import { BackToBack, endConversations, startConversations } from './run-view-turns';
import { startViews, type StreamKind, type Views } from './run-view-views';
import type { BenchServer } from './server';
import { createBenchAgentWorker, runWorkers } from './workers';

/**
 * After the views close, how long the API is watched for requests it should no longer make (at least): also longer
 * than the dev server's metrics lag (~1 s), so that its count at a row's end has all of the row.
 */
const AFTER_CLOSE_MS = 1_200;
/** After the last turn: more than a run watch's throttle (200 ms), so the views have the last of it. */
const SETTLE_MS = 300;

export async function runRunViewBench(
  ctx: BenchContext,
  server: BenchServer,
  opts: RunViewOptions,
): Promise<BenchPart> {
  const started = performance.now();
  const goalsDir = bossGoalsDir();
  const cleanups: (() => Promise<void>)[] = [() => Promise.resolve(rmSync(goalsDir, { recursive: true, force: true }))];
  try {
    const agent = await createBenchAgentWorker(
      ctx,
      'run-view',
      {
        AGENT_GOAL: BOSS_GOAL,
        GOALS_DIR: goalsDir,
        VALIDATE_PROMPTS: 'false',
        MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
      },
      delayedScripted(opts.latencyMs, new ScriptedModel(BOSS_SCRIPT)),
    );
    const running = runWorkers(ctx, [agent.worker], [agent.close], 'the run-view worker');
    cleanups.push(running.stop);
    const taskQueue = agent.worker.options.taskQueue;
    const views = startViews();
    cleanups.push(views.stop);
    const [api, serverRequests, handles] = await Promise.race([
      Promise.all([
        startRunViewApi({
          temporalAddress: server.info.address,
          namespace: ctx.namespace,
          taskQueue,
          goalId: BOSS_GOAL,
        }).then((a) => (cleanups.push(a.stop), a)),
        findServerRequests(server.pid, Number(server.info.address.split(':').pop())),
        startConversations(ctx, taskQueue, opts.conversations),
      ]),
      running.died,
    ]);
    cleanups.push(() => endConversations(handles));
    const setupMs = performance.now() - started;
    // The greetings' queries out of the server's count before the first row (its metrics lag about a second).
    await sleep(AFTER_CLOSE_MS);

    const shapes: { stream: StreamKind; conversations: number }[] = [
      { stream: 'run', conversations: opts.conversations },
      { stream: 'events', conversations: opts.conversations },
      ...(opts.oneConversation && opts.conversations > 1
        ? [
            { stream: 'run' as const, conversations: 1 },
            { stream: 'events' as const, conversations: 1 },
          ]
        : []),
    ];
    const pause = async (ms: number) => {
      await sleep(ms);
      ctx.interrupts.check();
    };
    const turns = new BackToBack();
    const probe = new Probe(api, views, serverRequests, turns);
    const results: ShapeResult[] = [];
    for (const [i, shape] of shapes.entries()) {
      ctx.interrupts.check();
      const idleSeconds = i === 0 ? opts.longIdleSeconds : opts.idleSeconds;
      const ids = handles.slice(0, shape.conversations).map((h) => h.workflowId);
      const path = shape.stream === 'run' ? 'run/events' : 'events';
      const urls = Array.from(
        { length: opts.views },
        (_, v) => `${api.url}/api/conversations/${encodeURIComponent(ids[v % ids.length]!)}/${path}`,
      );
      process.stderr.write(
        `bench (run view): ${opts.views} ${shape.stream} views over ${ids.length} conversation(s): ` +
          `${opts.busySeconds} s of turns back to back, then ${idleSeconds} s idle\n`,
      );
      const measured = (async (): Promise<ShapeResult> => {
        const beforeOpen = await probe.read();
        const openMs = await views.open(urls, shape.stream);
        const opened = await probe.read();
        turns.start(handles.slice(0, shape.conversations));
        await pause(opts.busySeconds * 1000);
        const busyEnd = await probe.read();
        // The turns under way finish and their last views go out; then the idle window, its long polls begun at
        // any time before it (as a view open for a while has them).
        await turns.stop();
        await pause(SETTLE_MS);
        const idleStart = await probe.read();
        await pause(idleSeconds * 1000);
        const idleEnd = await probe.read();
        await views.close();
        const closed = await probe.read();
        await pause(AFTER_CLOSE_MS);
        const after = await probe.read();
        return {
          ...shape,
          views: opts.views,
          openMs,
          open: [beforeOpen, opened],
          busy: [opened, busyEnd],
          drain: [busyEnd, idleStart],
          idle: [idleStart, idleEnd],
          afterClose: [closed, after],
        };
      })();
      results.push(await Promise.race([measured, running.died]));
    }
    return renderRunViewBench({
      opts,
      shapes: results,
      serverMetrics: serverRequests?.url ?? null,
      setupMs,
      measureMs: performance.now() - started,
    });
  } catch (err) {
    ctx.interrupts.check();
    throw err;
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
}

/** Reads everything at once: the API's figures, what the views received since the last read, the server's counts. */
class Probe {
  constructor(
    private readonly api: RunViewApi,
    private readonly views: Views,
    private readonly server: ServerRequests | null,
    private readonly turns: BackToBack,
  ) {}

  async read(): Promise<Reading> {
    const at = performance.now();
    const [api, views, server] = await Promise.all([
      this.api.read(),
      this.views.read(),
      this.server?.read().catch(() => null) ?? null,
    ]);
    return { at, api, views, server, turns: this.turns.completed };
  }
}
