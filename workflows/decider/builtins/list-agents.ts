// ListAgents: the agents the user can switch to. In multi-goal mode, asked from an agent other than the picker, it
// takes the conversation back to the picker (a versioned change: runs from before it only list).
import type { ToolCall } from '../../../core/types';
import { PATCHES } from '../../versions';
import type { BuiltinContext, BuiltinWith } from './builtin';

export function listAgents(convo: BuiltinContext): BuiltinWith<'list_agents' | 'check_version'> {
  return {
    decide: (call: ToolCall) => ({ kind: 'list_agents', call }),
    appliers: {
      // Without a call: the list a multi-goal run starts with, for the planner.
      list_agents: ({ call }, agents) => {
        if ('failed' in agents) {
          if (call) convo.record(call, { status: 'tool_error', error: agents.failed });
          return;
        }
        convo.agents = agents;
        if (!call) return;
        if (convo.awayFromPicker()) {
          convo.followWith({ kind: 'check_version', patchId: PATCHES.listAgentsReturnsToPicker, call });
        } else convo.record(call, { status: 'ok', result: { agents } });
      },
      check_version: ({ call }, patched) => {
        if (patched) {
          convo.followWith({ kind: 'resolve_goal', goalId: convo.settings.pickerGoalId, why: 'list_agents', call });
        } else convo.record(call, { status: 'ok', result: { agents: convo.agents } });
      },
    },
  };
}
