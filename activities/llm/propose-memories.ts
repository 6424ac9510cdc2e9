// The proposeMemories activity: at the end of a conversation whose goal says `memory.extract`, the conversation's model
// reads what the user and the agent said (extraction-prompt.ts) and names a few durable facts about the user; they are
// kept as the owner's proposed memories (memory/proposals.ts), which nothing recalls until the owner keeps one. Keyed
// by the run that ended: an attempt run again finds what an earlier one wrote, and asks no model.
import { Context, log } from '@temporalio/activity';
import type { ModelMessage } from 'ai';
import type { LlmActivities, ModelChoice, ProposedMemories } from '../../core/activity-types';
import { MAX_PROPOSALS } from '../../core/memory';
import type { Goal, Usage } from '../../core/types';
import { ZERO_USAGE } from '../../core/usage';
import type { LazyMemoryStore } from '../../memory/open-store';
import { propose, proposedBy } from '../../memory/proposals';
import { whileHeartbeating } from '../heartbeat';
import type { HookRunner } from '../hooks/hook-runner';
import { beforeModelCall } from '../hooks/model-hooks';
import { parseFacts, renderExtractPrompt, spoken, transcriptLines } from './extraction-prompt';
import type { TranscriptCache } from './transcripts';

export interface ProposerDeps {
  transcripts: TranscriptCache;
  /** One model call as the LLM activities make it (heartbeating, its failures typed), for the task `extract`. */
  ask(goal: Goal, request: { system: string; messages: ModelMessage[] }, choice: ModelChoice): Promise<Answer>;
  /** The model that answers for this goal and choice (`provider:model`). */
  modelName(goal: Goal, choice: ModelChoice): string;
  hooks?: HookRunner;
  /** None: MEMORY=off on this worker, nowhere to keep them. */
  memory?: LazyMemoryStore;
}

type Answer = { text: string; usage: Usage };

export function memoryProposer(deps: ProposerDeps): LlmActivities['proposeMemories'] {
  return async (input) => {
    const nothing: ProposedMemories = { proposed: [], known: 0, usage: ZERO_USAGE };
    const { memory } = deps;
    if (!memory) return nothing;
    const { workflowId: conversationId, runId } = Context.current().info.workflowExecution!;
    const run = `${conversationId}/${runId}`;
    // A store never opened holds no proposals: it is opened only when there is something to write.
    if (memory.started) {
      const earlier = await proposedBy((await whileHeartbeating(() => memory.store())).db, run);
      if (earlier.length) return { ...nothing, proposed: earlier };
    }
    const said = spoken(await deps.transcripts.messagesOf(input));
    if (!said.some((m) => m.kind === 'user')) return nothing;
    // The hooks (a PII redaction) see this request as they see every other.
    const asked = await beforeModelCall(
      deps.hooks,
      'extract',
      input.goal.id,
      renderExtractPrompt(input.goal, MAX_PROPOSALS),
      said,
    );
    if (asked.stopped) return nothing;
    const answer = await deps.ask(
      input.goal,
      {
        system: asked.system,
        messages: [{ role: 'user', content: `The conversation:\n\n${transcriptLines(asked.messages)}` }],
      },
      input,
    );
    const spent = { usage: answer.usage, model: deps.modelName(input.goal, input) };
    const facts = parseFacts(answer.text, MAX_PROPOSALS);
    if (!facts.length) return { ...nothing, ...spent };
    const store = await whileHeartbeating(() => memory.store());
    const written = await propose(store.db, store.limits, { owner: input.owner, conversationId, run, facts });
    // A limit costs the proposals it refuses, never the conversation.
    for (const why of written.refused) log.warn(`memory: proposals of ${conversationId}: ${why}`);
    return {
      proposed: written.ids,
      known: written.known,
      ...(written.refused.length ? { refused: written.refused } : {}),
      ...spent,
    };
  };
}
