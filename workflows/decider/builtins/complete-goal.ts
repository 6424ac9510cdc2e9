// CompleteGoal: the user's goal is achieved. A delegate's task ends with its envelope; in multi-goal mode a finished
// agent hands the conversation back to the picker (whose own closing ends it); otherwise the conversation ends.
import type { ToolCall } from '../../../core/types';
import type { Builtin, BuiltinContext } from './builtin';

export function completeGoal(convo: BuiltinContext): Builtin {
  return {
    decide: (call: ToolCall) => {
      if (convo.taskMode.task) {
        convo.record(call, { status: 'ok', result: { completed: convo.goal.id } });
        convo.finish('ok', typeof call.args.summary === 'string' ? call.args.summary : undefined);
        return undefined;
      }
      if (convo.awayFromPicker()) {
        return { kind: 'resolve_goal', goalId: convo.settings.pickerGoalId, why: 'complete_goal', call };
      }
      convo.record(call, { status: 'ok', result: { completed: convo.goal.id } });
      convo.finish('ok');
      return undefined;
    },
  };
}
