// The recall before planning: the owner's memories for the agent, relevant to the prompt, within the turn's budget.
// One query, in the planning activity, so no model waits for it and history holds no step for it.
import { Context, log } from '@temporalio/activity';
import type { Memory, RecallFor } from '../../core/memory';
import type { LazyMemoryStore } from '../../memory/open-store';
import type { MemoryStore } from '../../memory/memory-store';

export type Recall = (wanted: RecallFor, prompt: string) => Promise<Memory[]>;

export function recaller(memory: { store: LazyMemoryStore; recallTokens: number } | undefined): Recall {
  return async (wanted, prompt) => {
    // None where no memory was ever kept: the store is not opened for that.
    if (!memory?.store.started) return [];
    let store: MemoryStore;
    let recalled: Memory[];
    try {
      store = await memory.store.store();
      recalled = await store.recall(wanted.owner, wanted.goalId, prompt, memory.recallTokens);
    } catch (err) {
      // The store unreachable (its server down, its folder broken): the turn goes on without memories, not without
      // an answer.
      log.warn(`memory: nothing recalled for this turn: ${(err as Error).message}`);
      return [];
    }
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
