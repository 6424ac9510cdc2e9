// The two agents of the peer part (peer-bench.ts), each a worker process of its own on the bench's server and model:
// ours (the compiled worker, as production runs it, prompt validation on) and the bare @temporalio/ai-sdk agent
// (./workflows.ts, run by ./worker.ts). A conversation on either takes turns, says how many history bytes it has,
// ends (giving its workflow tasks' times on the worker) or, when a run fails, is terminated.
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { endChatSignal, promptUpdate } from '../../core/messages';
import { AgentGoalWorkflow } from '../../workflows';
import { startProcess } from '../../testkit/process';
import type { BenchContext } from '../context';
import { historyTimeline } from '../history-timeline';
import { PTO_GOAL } from '../scripted-answers';
import { externalServerSettings } from '../server';
import { waitForGreeting } from '../stats';
import { compiledWorkerFolder, firstPoll, spawnWorker, workerEnv } from '../worker-process';

const ROOT = path.join(__dirname, '..', '..');

export type SideName = 'ours' | 'peer';

export interface Conversation {
  turn(prompt: string): Promise<string>;
  historyBytes(): Promise<number>;
  /** Ends it; its workflow tasks' times on the worker (ms). */
  end(): Promise<number[]>;
  /** Terminates it unless it ended (a run that failed leaves nothing running). */
  abort(): Promise<void>;
}

export interface Side {
  name: SideName;
  pid: number;
  open(seq: number): Promise<Conversation>;
  stop(): Promise<void>;
}

export async function ourSide(ctx: BenchContext, address: string, baseUrl: string): Promise<Side> {
  const { dir, script } = await compiledWorkerFolder('peer');
  const queue = `bench-peer-ours-${ctx.runId}`;
  const worker = await spawnWorker({
    ...workerEnv(ctx, address, dir, script),
    TASK_QUEUE: queue,
    LLM_MODEL: 'openai-compatible:bench',
    LLM_BASE_URL: baseUrl,
    VALIDATE_PROMPTS: 'true',
  });
  await firstPoll(ctx, queue).catch(stopAnd(worker.stop));
  return {
    name: 'ours',
    pid: worker.pid,
    stop: () => worker.stop(),
    async open(seq) {
      const handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
        taskQueue: queue,
        workflowId: `${queue}-${seq}`,
        args: [{ goalId: PTO_GOAL }],
      });
      await waitForGreeting(handle);
      const turn = async (prompt: string) => (await handle.executeUpdate(promptUpdate, { args: [prompt] })).reply ?? '';
      return conversation(handle, turn, () => handle.signal(endChatSignal));
    },
  };
}

export async function peerSide(ctx: BenchContext, address: string, baseUrl: string): Promise<Side> {
  const queue = `bench-peer-aisdk-${ctx.runId}`;
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('./workflows') });
  const bundle = path.join(tmpdir(), `${queue}.js`);
  writeFileSync(bundle, code);
  const worker = await startProcess(process.execPath, ['--require', 'tsx/cjs', 'bench/peer/worker.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...externalServerSettings(),
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: ctx.namespace,
      TASK_QUEUE: queue,
      PEER_BUNDLE: bundle,
      LLM_BASE_URL: baseUrl,
    },
    ready: /worker on /,
    what: 'the @temporalio/ai-sdk agent worker',
    timeoutMs: 120_000,
    detached: true,
  });
  const stop = () => worker.end('SIGTERM', 15_000).finally(() => rmSync(bundle, { force: true }));
  await firstPoll(ctx, queue).catch(stopAnd(stop));
  return {
    name: 'peer',
    pid: worker.pid,
    stop,
    async open(seq) {
      const handle = await ctx.client.workflow.start('peerAgent', { taskQueue: queue, workflowId: `${queue}-${seq}` });
      const turn = (prompt: string) => handle.executeUpdate<string, [string]>('turn', { args: [prompt] });
      return conversation(handle, turn, () => handle.signal('end'));
    },
  };
}

/** A worker that started but never polled is stopped before the error goes on. */
const stopAnd =
  (stop: () => Promise<void>) =>
  async (err: unknown): Promise<never> => {
    await stop();
    throw err;
  };

/** How long a turn may take before the run gives up (a worker that died mid-turn would leave it waiting for good). */
const TURN_TIMEOUT_MS = 60_000;

async function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  const timer = new AbortController();
  const late = sleep(ms, undefined, { signal: timer.signal }).then(
    () => Promise.reject(new Error(`peer bench: ${what} did not answer within ${ms / 1000} s`)),
    () => new Promise<never>(() => undefined), // the turn answered first: this side of the race never settles
  );
  try {
    return await Promise.race([work, late]);
  } finally {
    timer.abort();
  }
}

function conversation(handle: WorkflowHandle, turn: (prompt: string) => Promise<string>, end: () => Promise<void>) {
  let ended = false;
  return {
    turn: (prompt: string) => within(TURN_TIMEOUT_MS, turn(prompt), handle.workflowId),
    historyBytes: async () => Number((await handle.describe()).raw.workflowExecutionInfo?.historySizeBytes ?? NaN),
    async end() {
      await end();
      await handle.result();
      ended = true;
      return taskTimes(await handle.fetchHistory());
    },
    async abort() {
      if (!ended) await handle.terminate('the peer bench stopped').catch(() => undefined);
    },
  } satisfies Conversation;
}

function taskTimes(history: Parameters<typeof historyTimeline>[0]): number[] {
  return historyTimeline(history)
    .workflowTasks.filter((t) => t.startedAt !== undefined && t.completedAt !== undefined)
    .map((t) => t.completedAt! - t.startedAt!);
}
