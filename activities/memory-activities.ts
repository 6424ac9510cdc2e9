// Remember and Forget (core/remember.ts) against the memory store. A Remember's key is its conversation and call:
// run again after a crash or a retry, it finds the memory its first attempt kept. A refusal (a limit, a memory that
// is not the owner's) is the call's tool error, in words naming the setting. People's requests (manageMemory) are
// answered here too, keeping a proposed memory among them (memory/proposals.ts).
import { ApplicationFailure, Context } from '@temporalio/activity';
import { FailureTypes } from '../core/failure-types';
import type { MemoryActivities } from '../core/activity-types';
import type { MemoryAnswer, MemoryRequest } from '../core/memory';
import type { MemoryCheck } from '../core/remember';

type CheckInput = { owner: string; fact?: string; tags?: string[]; forget?: string };
import type { MemoryStore } from '../memory/memory-store';
import type { BuiltinRunActivities } from '../core/builtin-runs';
import { UserError } from '../core/user-error';
import type { ToolOutcome } from '../core/types';
import type { LazyMemoryStore } from '../memory/open-store';
import { keepProposal } from '../memory/proposals';
import { whileHeartbeating } from './heartbeat';

export function createMemoryActivities(
  memory: LazyMemoryStore,
): Pick<BuiltinRunActivities, 'rememberFact' | 'forgetFact' | 'checkFact' | 'checkForget'> & MemoryActivities {
  /** Remember's and Forget's check: what the user is shown before approving, or why it cannot run. */
  async function checkCall({ owner, fact, tags, forget }: CheckInput): Promise<MemoryCheck> {
    const store = await memory.store();
    if (forget !== undefined) {
      const found = await store.get(owner, forget);
      return found
        ? { problems: [], shown: [JSON.stringify(found.text)] }
        : { problems: [`No memory ${forget} of this user.`], shown: [] };
    }
    const refused = await store.refusal(owner, fact ?? '', tags ?? []);
    return refused ? { problems: [refused], shown: [] } : { problems: [], shown: [JSON.stringify(fact)] };
  }
  return {
    checkFact: checkCall,
    checkForget: checkCall,
    async manageMemory(req): Promise<MemoryAnswer> {
      try {
        return await answer(await memory.store(), req);
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        const type = { not_found: FailureTypes.NotFound, refused: FailureTypes.Refused }[err.kind as string];
        throw ApplicationFailure.nonRetryable(err.message, type ?? FailureTypes.Invalid);
      }
    },
    async rememberFact({ owner, goalId, fact, tags, callId }): Promise<ToolOutcome> {
      const { workflowId: conversationId, runId } = Context.current().info.workflowExecution!;
      // Heartbeating: the store's first opening takes seconds, longer than HEARTBEAT_TIMEOUT may be.
      return whileHeartbeating(() =>
        refusedInWords(async () => {
          const { memory: kept, existing } = await (
            await memory.store()
          ).remember({
            owner,
            goalId,
            text: fact,
            tags,
            source: { kind: 'conversation', conversationId, callId },
            // The run too: a conversation id may be used again once its conversation has closed.
            key: `${conversationId}/${runId}/${callId}`,
            formerKeys: [`${conversationId}/${callId}`],
          });
          return { status: 'ok', result: { id: kept.id, kept: kept.text, ...(existing ? { alreadyKept: true } : {}) } };
        }),
      );
    },
    async forgetFact({ owner, id }): Promise<ToolOutcome> {
      // Its check found the memory before the user approved: gone now, it was this call's earlier attempt (or the
      // owner) that removed it, so a retry answers as the first attempt did.
      return refusedInWords(async () => {
        const removed = await (await memory.store()).forget(owner, id);
        return { status: 'ok', result: { forgotten: id, ...(removed ? {} : { alreadyGone: true }) } };
      });
    },
  };
}

async function answer(store: MemoryStore, req: MemoryRequest): Promise<MemoryAnswer> {
  const scope = req.owner;
  switch (req.op) {
    case 'list':
      return { memories: await store.list(scope, req) };
    case 'search':
      return { memories: await store.search(scope, req.query, req.limit) };
    case 'show': {
      const found = await store.get(scope, req.id);
      if (!found) throw new UserError(`No memory ${req.id}.`, 'not_found');
      return { memory: found, uses: await store.uses.of(found.id) };
    }
    case 'add': {
      if (!scope) throw new UserError('A memory is added for an owner: name one (--owner).');
      const kept = await store.remember({
        owner: scope,
        goalId: req.goalId ?? null,
        text: req.text,
        tags: req.tags,
        source: { kind: req.via },
      });
      return { memory: kept.memory };
    }
    case 'edit':
      return { memory: await store.edit(scope, req.id, req) };
    case 'delete':
      if (!(await store.forget(scope, req.id))) throw new UserError(`No memory ${req.id}.`, 'not_found');
      return { deleted: req.id };
    case 'keep': {
      // A proposal accepted (one already kept is answered as it is); dismissing one is deleting it.
      const kept = (await keepProposal(store.db, scope, req.id)) ? await store.get(scope, req.id) : null;
      if (!kept) throw new UserError(`No memory ${req.id}.`, 'not_found');
      // Written without its vector (EMBEDDING_MODEL): made now, in the background, so recall by meaning finds it.
      void store.vectors?.backfill();
      return { memory: kept };
    }
    case 'export':
      if (!scope) throw new UserError('Memories are exported per owner: name one (--owner).');
      return { memories: await store.exportAll(scope) };
    case 'import':
      if (!scope) throw new UserError('Memories are imported for an owner: name one (--owner).');
      return { imported: await store.importAll(scope, req.memories) };
  }
}

async function refusedInWords(work: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UserError) return { status: 'tool_error', error: err.message };
    throw err;
  }
}
