// ChangeGoal: the conversation switches to another agent. The same move ends ListAgents and CompleteGoal when they
// take the conversation back to the picker: moveGoal records the call's result and takes the new goal. A client's
// changeGoal signal switches without a call (switchByClient).
import type { Effect, ResultOf } from '../../../core/effects';
import type { ToolCall } from '../../../core/types';
import type { Prompts } from '../prompts';
import type { Builtin, BuiltinContext } from './builtin';

export function changeGoal(): Builtin {
  return {
    decide: (call: ToolCall) => ({ kind: 'resolve_goal', goalId: String(call.args.goalId), why: 'change_goal', call }),
  };
}

/** A builtin's goal move, resolved: the call says where the conversation went; the new system prompt does the rest. */
export function moveGoal(
  convo: BuiltinContext,
  effect: Effect<'resolve_goal'> & { why: 'change_goal' | 'list_agents' | 'complete_goal' },
  resolved: ResultOf<'resolve_goal'>,
): void {
  if ('failed' in resolved) return convo.record(effect.call, { status: 'tool_error', error: resolved.failed });
  const result =
    effect.why === 'change_goal'
      ? { switchedTo: resolved.goal.agentName }
      : effect.why === 'list_agents'
        ? { agents: convo.agents }
        : { completed: convo.goal.id, next: 'pick a new agent' };
  convo.record(effect.call, { status: 'ok', result });
  convo.switchGoal(resolved, false);
}

/** A client's changeGoal signal, resolved: the new agent starts the way a new conversation starts. */
export function switchByClient(convo: BuiltinContext & { prompts: Prompts }, resolved: ResultOf<'resolve_goal'>): void {
  if ('failed' in resolved) {
    convo.log.note(`Could not switch agent: ${resolved.failed}`);
    return convo.pause();
  }
  convo.switchGoal(resolved, true);
  convo.prompts.first(resolved.goal.starterPrompt, true);
}
