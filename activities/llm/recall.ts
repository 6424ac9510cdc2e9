// The recall before planning: the owner's memories for the agent, relevant to the prompt, within the turn's budget.
// One query, in the planning activity, so no model waits for it and history holds no step for it.
import { Context } from '@temporalio/activity';
import type { Memory, RecallFor } from '../../core/memory';
import type { LazyMemoryStore } from '../../memory/open-store';

export type Recall = (wanted: RecallFor, prompt: string) => Promise<Memory[]>;

export function recaller(memory: { store: LazyMemoryStore; recallTokens: number } | undefined): Recall {
  return async (wanted, prompt) => {
    // None where no memory was ever kept: the store is not opened for that.
    if (!memory?.store.started) return [];
    const store = await memory.store.store();
    const recalled = await store.recall(wanted.owner, wanted.goalId, prompt, memory.recallTokens);
    // What used each memory (the Memory page's "used by"): noted, written a moment later with others.
    const conversation = Context.current().info.workflowExecution?.workflowId;
    if (conversation)
      store.uses.note(
        recalled.map((m) => m.id),
        conversation,
        wanted.goalId,
      );
    return recalled;
  };
}
