// Bytes per turn with and without the claim check: one conversation per mode whose every turn calls Report (~3 MB of
// JSON) and then, with the claim check, reads the row it needs with ReadFile. Per turn: the history bytes it added
// (the server's historySizeBytes), the bytes of the model requests it made (RequestLog), its time, and whether the
// answer was found or cut.
import { performance } from 'node:perf_hooks';
import type { WorkflowHandle } from '@temporalio/client';
import { endChatSignal, promptUpdate } from '../core/messages';
import { AgentGoalWorkflow } from '../workflows';
import type { BenchContext } from './context';
import { createFilesAgent, FILES_GOAL, LAST_ROW, REPORT_PROMPT, reportCode, type FilesMode } from './files-agent';
import { waitForGreeting } from './stats';
import { runWorkers } from './workers';

export interface BigResultTurn {
  turn: number;
  historyBytes: number;
  requestBytes: number;
  requests: number;
  ms: number;
  /** The reply held the row asked for (claim check), or said the result was cut (none). */
  outcome: 'found' | 'cut' | 'wrong';
  reply: string;
}

export interface BigResultRun {
  mode: FilesMode;
  turns: BigResultTurn[];
  /** The history's bytes after the last turn. */
  historyTotalBytes: number;
  /** The conversation's result when it ends (its transcript), as JSON. */
  resultBytes: number;
}

export async function bigResultTurns(ctx: BenchContext, dir: string, mode: FilesMode, turns: number) {
  const { agent, requests } = await createFilesAgent(ctx, dir, mode, mode);
  const running = runWorkers(ctx, [agent.worker], [agent.close], `the files worker (${mode})`);
  try {
    return await Promise.race([converse(ctx, agent.worker.options.taskQueue, mode, turns, requests), running.died]);
  } finally {
    await running.stop();
  }
}

async function converse(
  ctx: BenchContext,
  taskQueue: string,
  mode: FilesMode,
  turns: number,
  requests: { bytes: number[]; since(from: number): number },
): Promise<BigResultRun> {
  const handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
    taskQueue,
    workflowId: `bench-files-${mode}-${ctx.runId}`,
    args: [{ goalId: FILES_GOAL }],
  });
  await waitForGreeting(handle);
  const done: BigResultTurn[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    ctx.interrupts.check();
    const before = await historyBytes(handle);
    const firstRequest = requests.bytes.length;
    const started = performance.now();
    const { reply } = await handle.executeUpdate(promptUpdate, { args: [REPORT_PROMPT(turn)] });
    const ms = performance.now() - started;
    const added = (await historyBytes(handle)) - before;
    const found = reply.includes(reportCode(turn, LAST_ROW));
    const cut = reply.startsWith('Cut:') && reply.includes('MAX_TOOL_RESULT_CHARS');
    done.push({
      turn,
      historyBytes: added,
      requestBytes: requests.since(firstRequest),
      requests: requests.bytes.length - firstRequest,
      ms,
      outcome: found ? 'found' : cut ? 'cut' : 'wrong',
      reply: reply.slice(0, 200),
    });
    process.stderr.write(`bench (files): ${mode} turn ${turn}: +${added} history bytes, ${ms.toFixed(0)} ms\n`);
  }
  const historyTotalBytes = await historyBytes(handle);
  await handle.signal(endChatSignal);
  const resultBytes = Buffer.byteLength(JSON.stringify(await handle.result()));
  return { mode, turns: done, historyTotalBytes, resultBytes };
}

async function historyBytes(handle: WorkflowHandle): Promise<number> {
  return Number((await handle.describe()).raw.workflowExecutionInfo?.historySizeBytes ?? 0);
}
