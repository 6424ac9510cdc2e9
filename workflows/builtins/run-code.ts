// RunCode: a short pure script for a one-off computation, run in the worker's sandbox (an activity); the script and
// its answer stay in the transcript as the call and its result. It calls no tools: those stay durable steps.
import type { ToolCall, ToolSpec } from '../../core/types';
import { argsFit, type BuiltinContext, type BuiltinWith } from './builtin';

export function runCode(convo: BuiltinContext): BuiltinWith<'run_code'> {
  return {
    decide: (call: ToolCall, spec: ToolSpec) => (argsFit(convo, call, spec) ? { kind: 'run_code', call } : undefined),
    appliers: {
      run_code: ({ call }, outcome) => convo.record(call, outcome),
    },
  };
}
