// How long a turn takes to recover when its worker dies mid model call: a real worker process (worker/main.ts) is
// SIGKILLed while the model (a local Chat Completions server, answering in MODEL_DELAY_MS) is working, and a new
// worker is started at once. Measured: kill → the model call's retry started (server clock, same host), and
// kill → the reply is ready. The heartbeat timeout of model calls (10 s) bounds the first.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { AgentGoalWorkflow } from '../../workflows';
import { userPromptSignal } from '../../core/messages';
import { completion, lastUserText, startFakeChatCompletions } from '../../testkit/fake-chat-completions';
import { waitUntil } from '../../testkit/wait-until';
import { startWorkerProcess } from '../../testkit/worker-process';
import type { BenchContext } from '../context';
import { historyTimeline } from '../history-timeline';
import { PTO_GOAL } from '../scripted-answers';
import { waitForGreeting } from '../stats';

const MODEL_DELAY_MS = 2_000;
const SLOW_PROMPT = 'bench: think slowly';

export interface RecoverySample {
  killToRetryMs: number;
  killToReplyMs: number;
}

export async function recoveryAfterKill(ctx: BenchContext, address: string, runs: number): Promise<RecoverySample[]> {
  const model = await startFakeChatCompletions(async (body) => {
    if (lastUserText(body) === SLOW_PROMPT) await new Promise((r) => setTimeout(r, MODEL_DELAY_MS));
    return completion({ text: 'Done thinking.' });
  });
  const taskQueue = `bench-recovery-${ctx.runId}`;
  const env = {
    TEMPORAL_ADDRESS: address,
    TASK_QUEUE: taskQueue,
    AGENT_GOAL: PTO_GOAL,
    LLM_MODEL: 'openai-compatible:bench',
    LLM_KEY: 'bench-key-not-secret',
    LLM_BASE_URL: model.baseUrl,
    VALIDATE_PROMPTS: 'false',
    MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-recovery-')),
    LOG_LEVEL: 'ERROR',
  };
  const samples: RecoverySample[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      ctx.interrupts.check();
      const first = await startWorkerProcess(env);
      const handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
        taskQueue,
        workflowId: `bench-recovery-${ctx.runId}-${run}`,
        args: [{ goalId: PTO_GOAL }],
      });
      await waitForGreeting(handle);
      const asked = model.requests.length;
      await handle.signal(userPromptSignal, SLOW_PROMPT);
      await waitUntil(async () => model.requests.length > asked);
      const killedAt = Date.now();
      await first.kill();
      const second = await startWorkerProcess(env);
      await waitForGreeting(handle, 120_000);
      const repliedAt = Date.now();
      samples.push({ killToRetryMs: (await retryStartedAt(handle)) - killedAt, killToReplyMs: repliedAt - killedAt });
      await second.stop();
    }
  } finally {
    await model.close();
  }
  return samples;
}

/** When the slow prompt's model call last started: the history records the start of the attempt that completed. */
async function retryStartedAt(handle: WorkflowHandle): Promise<number> {
  const plan = historyTimeline(await handle.fetchHistory())
    .activities.filter((a) => a.type === 'planTurn')
    .at(-1);
  if (!plan?.startedAt) throw new Error('the model call has no recorded start');
  return plan.startedAt;
}
