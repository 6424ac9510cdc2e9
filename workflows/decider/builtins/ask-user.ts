// AskUser: a delegate's question for the user, asked through its parent; the answer comes back as the call's result
// (Conversation takes the user's next message as it). Offered to delegates only (TaskMode).
import { checkArgs } from '../../../core/check-args';
import type { ToolCall, ToolSpec } from '../../../core/types';
import { invalid } from '../../../core/check-args';
import type { Builtin, BuiltinContext } from './builtin';

export function askUser(convo: BuiltinContext): Builtin {
  return {
    decide: (call: ToolCall, spec: ToolSpec) => {
      const check = checkArgs(spec.inputSchema, call.args);
      if (check.problems.length > 0 || !convo.taskMode.task) {
        const problems = convo.taskMode.task
          ? check.problems
          : ['AskUser is for delegates; ask the user in your reply instead'];
        convo.record(call, invalid(problems, check.missing));
        return undefined;
      }
      convo.taskMode.ask(call);
      convo.pause();
      return null;
    },
  };
}
