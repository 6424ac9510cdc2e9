// ReadFile: a window of a file the conversation holds, read by an activity from the blob store (the bytes never enter
// history; the window read is the call's result, bounded). An id the conversation was never given is refused here;
// a held one's call runs as any tool's (run_tool; workflows/tool-kinds.ts reads the window).
import type { ToolCall, ToolSpec } from '../../../core/types';
import { argsFit, type Builtin, type BuiltinContext } from './builtin';

export function readFile(convo: BuiltinContext): Builtin {
  return {
    decide: (call: ToolCall, spec: ToolSpec) => {
      if (!argsFit(convo, call, spec)) return undefined;
      const id = String(call.args.id);
      if (convo.log.files.get(id)) return { kind: 'run_tool', call, spec };
      const held = convo.log.files.list().map((f) => `${f.id} (${f.name})`);
      convo.record(call, {
        status: 'tool_error',
        error: `No file ${id} in this conversation; its files: ${held.join(', ') || 'none'}.`,
      });
      return undefined;
    },
  };
}
