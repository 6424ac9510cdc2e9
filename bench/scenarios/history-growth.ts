// History bytes a text turn adds, early and late in one long conversation: flat when LLM activities get the
// transcript by reference, growing with the turn number when every step carries the whole transcript.
import type { WorkflowHandle } from '@temporalio/client';
import { AgentGoalWorkflow } from '../../workflows';
import { endChatSignal, promptUpdate } from '../../core/messages';
import type { BenchContext } from '../context';
import { PTO_GOAL, TEXT_PROMPT, turnScript } from '../scripted-answers';
import { waitForGreeting } from '../stats';
import { createBenchAgentWorker } from '../workers';

export interface HistoryGrowth {
  /** Turn number → history bytes that turn added. */
  addedAt: Record<number, number>;
  totalBytes: number;
  events: number;
}

export async function historyGrowth(ctx: BenchContext, turns: number, checkpoints: number[]): Promise<HistoryGrowth> {
  const agent = await createBenchAgentWorker(
    ctx,
    'history',
    { AGENT_GOAL: PTO_GOAL, VALIDATE_PROMPTS: 'false' },
    turnScript,
  );
  const running = agent.worker.run();
  try {
    const handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
      taskQueue: agent.worker.options.taskQueue,
      workflowId: `bench-history-${ctx.runId}`,
      args: [{ goalId: PTO_GOAL }],
    });
    await waitForGreeting(handle);
    const addedAt: Record<number, number> = {};
    for (let turn = 1; turn <= turns; turn++) {
      ctx.interrupts.check();
      // Measured on the run that takes the turn: one that continues as new right after it (its history full) is still
      // the run whose bytes the turn added.
      const run = checkpoints.includes(turn)
        ? ctx.client.workflow.getHandle(handle.workflowId, await runIdOf(handle))
        : null;
      const before = run ? await historyBytes(run) : 0;
      await handle.executeUpdate(promptUpdate, { args: [TEXT_PROMPT] });
      if (run) addedAt[turn] = (await historyBytes(run)) - before;
    }
    const info = (await handle.describe()).raw.workflowExecutionInfo;
    await handle.signal(endChatSignal);
    return { addedAt, totalBytes: Number(info?.historySizeBytes ?? 0), events: Number(info?.historyLength ?? 0) };
  } finally {
    agent.worker.shutdown();
    await running;
    await agent.close();
  }
}

async function runIdOf(handle: WorkflowHandle): Promise<string> {
  return (await handle.describe()).runId;
}

async function historyBytes(handle: WorkflowHandle): Promise<number> {
  return Number((await handle.describe()).raw.workflowExecutionInfo?.historySizeBytes ?? 0);
}
