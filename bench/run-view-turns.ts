// The conversations the run-view benchmark watches (the boss of run-view-agents.ts), each turn said straight to the
// workflow (an update from the bench, not through the API, so that the API's CPU is its views' alone), back to back.
import type { WorkflowHandle } from '@temporalio/client';
import { endChatSignal, promptUpdate } from '../core/messages';
import { AgentGoalWorkflow } from '../workflows';
import type { BenchContext } from './context';
import { BOSS_GOAL, PROMPT, REPLY } from './run-view-agents';
import { waitForGreeting } from './stats';

/** Starts `count` conversations with the boss and waits for each one's greeting. */
export function startConversations(ctx: BenchContext, taskQueue: string, count: number): Promise<WorkflowHandle[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, k) => {
      const handle = await ctx.client.workflow.start(AgentGoalWorkflow, {
        taskQueue,
        workflowId: `bench-run-view-${ctx.runId}-${k}`,
        args: [{ goalId: BOSS_GOAL }],
      });
      await waitForGreeting(handle);
      return handle;
    }),
  );
}

export async function endConversations(handles: WorkflowHandle[]): Promise<void> {
  await Promise.all(handles.map((h) => h.signal(endChatSignal).catch(() => undefined)));
}

/** Conversations taking turns back to back until stopped; counts the turns that came back. */
export class BackToBack {
  completed = 0;
  private stopping = false;
  private loops: Promise<void>[] = [];

  start(handles: WorkflowHandle[]): void {
    this.stopping = false;
    this.loops = handles.map((h) => this.loop(h));
    for (const l of this.loops) l.catch(() => undefined);
  }

  /** Lets each conversation finish the turn it is taking; throws what a turn threw. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
    this.loops = [];
  }

  private async loop(handle: WorkflowHandle): Promise<void> {
    while (!this.stopping) {
      const { reply } = await handle.executeUpdate(promptUpdate, { args: [PROMPT] });
      if (!REPLY.test(reply)) throw new Error(`run view: unexpected reply ${JSON.stringify(reply)}`);
      this.completed++;
    }
  }
}
