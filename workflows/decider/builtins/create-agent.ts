// CreateAgent: a new agent (a goal) drafted by the LLM from the live catalog. It changes the world (a goal file), so
// it goes through argument checks and approval like any such tool; the draft is checked first, so the user is only
// shown drafts that can be goals; once approved, an activity writes it and it is usable at once.
import type { ToolCall } from '../../../core/types';
import { invalid, type BuiltinContext, type BuiltinWith } from './builtin';

export function createAgent(convo: BuiltinContext): BuiltinWith<'check_agent_draft' | 'create_agent'> {
  /** Calls whose draft passed the check: the user is shown them for approval. */
  const checked = new Set<string>();
  return {
    approvalText: 'Save this new agent to the goals folder; it is usable at once.',
    beforeApproval: (call: ToolCall) => (checked.has(call.id) ? undefined : { kind: 'check_agent_draft', call }),
    // What the new agent was asked for: the user's latest words.
    run: (call: ToolCall) => ({ kind: 'create_agent', call, request: convo.log.lastUserText() }),
    cancelled: (effect) =>
      effect.kind === 'create_agent'
        ? {
            status: 'tool_error',
            error: 'Cancelled by the user; the agent may or may not have been saved (agent goals lists it if it was).',
          }
        : undefined,
    appliers: {
      check_agent_draft: ({ call }, draft) => {
        if ('failed' in draft) convo.record(call, { status: 'tool_error', error: draft.failed });
        else if (draft.problems.length > 0) convo.record(call, invalid(draft.problems));
        else checked.add(call.id);
      },
      create_agent: ({ call }, created) => {
        if ('failed' in created) return convo.record(call, { status: 'tool_error', error: created.failed });
        if ('problems' in created) return convo.record(call, invalid(created.problems));
        const next = `ChangeGoal to ${created.goalId} to use it now`;
        convo.record(call, { status: 'ok', result: { created: created.goalId, next } });
        // The planner's list of agents includes the new one from the next step on.
        if (convo.settings.multiGoal) convo.followWith({ kind: 'list_agents' });
      },
    },
  };
}
