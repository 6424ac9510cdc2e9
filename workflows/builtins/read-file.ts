// ReadFile: a window of a file the conversation holds, read by an activity from the blob store (the bytes never enter
// history; the window read is the call's result, bounded). An id the conversation was never given is refused here.
import type { ToolCall, ToolSpec } from '../../core/types';
import { argsFit, type BuiltinContext, type BuiltinWith } from './builtin';

export function readFile(convo: BuiltinContext): BuiltinWith<'read_file'> {
  return {
    decide: (call: ToolCall, spec: ToolSpec) => {
      if (!argsFit(convo, call, spec)) return undefined;
      const id = String(call.args.id);
      const ref = convo.log.files.get(id);
      if (ref) return { kind: 'read_file', call, ref };
      const held = convo.log.files.list().map((f) => `${f.id} (${f.name})`);
      convo.record(call, {
        status: 'tool_error',
        error: `No file ${id} in this conversation; its files: ${held.join(', ') || 'none'}.`,
      });
      return undefined;
    },
    appliers: {
      read_file: ({ call }, outcome) => convo.record(call, outcome),
    },
  };
}
