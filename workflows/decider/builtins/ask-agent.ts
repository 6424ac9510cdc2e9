// AskAgent: hands a task to another agent, run as a child conversation (a delegate). All of a step's AskAgent calls
// start together, before its other calls, within the depth and parallel limits (Delegations); the delegates then run
// side by side and each one's envelope becomes its call's result.
import { ASK_AGENT } from '../../../core/builtin-specs';
import type { ToolCall } from '../../../core/types';
import { DEFAULT_DELEGATION_LIMITS } from '../delegations';
import type { BuiltinContext, BuiltinWith } from './builtin';
import { ZERO_USAGE } from '../../../core/usage';

export function askAgent(convo: BuiltinContext): BuiltinWith<'start_delegates'> {
  return {
    beforeCalls: (calls: ToolCall[]) => {
      const spec = convo.offer.find(ASK_AGENT);
      const unstarted = spec ? calls.filter((c) => c.tool === ASK_AGENT && !convo.delegations.has(c.id)) : [];
      if (unstarted.length === 0) return null;
      const limits = convo.settings.delegation ?? DEFAULT_DELEGATION_LIMITS;
      const depth = convo.input.task?.depth ?? 0;
      const { start, refused } = convo.delegations.plan(unstarted, spec, depth, limits, convo.input.owner);
      for (const [call, outcome] of refused) convo.record(call, outcome);
      return start.length > 0 ? { kind: 'start_delegates', delegates: start } : undefined;
    },
    appliers: {
      start_delegates: ({ delegates }, started) => {
        for (const result of started) {
          if (!('failed' in result)) continue;
          const call = delegates.find((d) => d.call.id === result.callId)?.call;
          const summary = `The agent could not start: ${result.failed}`;
          if (call) convo.applyEnvelope(call.id, { status: 'error', summary, usage: ZERO_USAGE });
        }
      },
    },
  };
}
