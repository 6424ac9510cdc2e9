// RunCode: a short pure script for a one-off computation, run in the worker's sandbox (an activity); the script and
// its answer stay in the transcript as the call and its result. It calls no tools: those stay durable steps. Its call
// runs as any tool's (run_tool; workflows/tool-kinds.ts runs its activity).
import type { ToolCall, ToolSpec } from '../../../core/types';
import { argsFit, type Builtin, type BuiltinContext } from './builtin';

export function runCode(convo: BuiltinContext): Builtin {
  return {
    decide: (call: ToolCall, spec: ToolSpec) =>
      argsFit(convo, call, spec) ? { kind: 'run_tool', call, spec } : undefined,
  };
}
