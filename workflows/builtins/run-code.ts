// RunCode: a short pure script for a one-off computation, run in the worker's sandbox (an activity); the script and
// its answer stay in the transcript as the call and its result. It calls no tools: those stay durable steps.
import { invalidArgs } from '../../core/check-args';
import type { ToolCall, ToolSpec } from '../../core/types';
import type { BuiltinContext, BuiltinWith } from './builtin';

export function runCode(convo: BuiltinContext): BuiltinWith<'run_code'> {
  return {
    decide: (call: ToolCall, spec: ToolSpec) => {
      const invalid = invalidArgs(spec.inputSchema, call.args);
      if (invalid) {
        convo.record(call, invalid);
        return undefined;
      }
      return { kind: 'run_code', call };
    },
    appliers: {
      run_code: ({ call }, outcome) => convo.record(call, outcome),
    },
  };
}
