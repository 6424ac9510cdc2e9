// SearchTools: past TOOL_SEARCH_THRESHOLD the LLM sees only some tools (ToolOffer) and finds the rest by what they
// do; what it finds is offered for the rest of the turn. The ranking runs as a local activity.
import type { ToolCall, ToolSpec } from '../../../core/types';
import { argsFit, type BuiltinContext, type BuiltinWith } from './builtin';

export function searchTools(convo: BuiltinContext): BuiltinWith<'search_tools'> {
  return {
    decide: (call: ToolCall, spec: ToolSpec) => {
      if (!argsFit(convo, call, spec)) return undefined;
      const limit = typeof call.args.limit === 'number' ? call.args.limit : undefined;
      const tools = convo.offer.tools.filter((t) => t.kind !== 'builtin');
      return { kind: 'search_tools', call, query: String(call.args.query), limit, tools };
    },
    appliers: {
      search_tools: ({ call, query }, matches) => {
        if ('failed' in matches) return convo.record(call, { status: 'tool_error', error: matches.failed });
        convo.offer.found(matches.map((m) => m.name));
        convo.record(call, { status: 'ok', result: { query, matches } });
      },
    },
  };
}
