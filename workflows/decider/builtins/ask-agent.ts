// AskAgent: hands a task to another agent, run as a child conversation (a delegate), or, for a remote A2A agent
// (`a2a:<name>`), as one task of that agent (a tool call of kind a2a). All of a step's AskAgent calls
// start together, before its other calls, within the depth and parallel limits (Delegations); the delegates then run
// side by side and each one's envelope becomes its call's result.
import { ASK_AGENT, askedGoalId, remoteAgentOf } from '../../../core/builtin-specs';
import type { ToolCall, ToolSpec } from '../../../core/types';
import { DEFAULT_DELEGATION_LIMITS } from '../delegations';
import { argsFit, type BuiltinContext, type BuiltinWith } from './builtin';
import { ZERO_USAGE } from '../../../core/usage';

export function askAgent(convo: BuiltinContext): BuiltinWith<'start_delegates'> {
  return {
    beforeCalls: (calls: ToolCall[]) => {
      const spec = convo.offer.find(ASK_AGENT);
      // A remote agent's call is not a delegate: it runs as a tool call (decide, below).
      const unstarted = spec
        ? calls.filter((c) => c.tool === ASK_AGENT && !convo.delegations.has(c.id) && !isRemote(c))
        : [];
      if (unstarted.length === 0) return null;
      const limits = convo.settings.delegation ?? DEFAULT_DELEGATION_LIMITS;
      const depth = convo.input.task?.depth ?? 0;
      const { start, refused } = convo.delegations.plan(unstarted, spec, depth, limits, convo.input.owner);
      for (const [call, outcome] of refused) convo.record(call, outcome);
      return start.length > 0 ? { kind: 'start_delegates', delegates: start } : undefined;
    },
    /** An AskAgent call to a remote A2A agent: its arguments checked, then one remote task (the askRemoteAgent
     * activity) whose end is the call's result, as a delegate's envelope is. */
    decide: (call: ToolCall, spec: ToolSpec) => {
      const agent = remoteAgentOf(askedGoalId(call.args));
      if (agent === undefined) {
        convo.record(call, { status: 'tool_error', error: 'this agent could not be started' });
        return undefined;
      }
      if (!argsFit(convo, call, spec)) return undefined;
      // The remote agent's context goes on: its last task here named it (its own conversation with us).
      const contextId = lastContext(convo, askedGoalId(call.args));
      return {
        kind: 'run_tool',
        call,
        spec: { ...spec, kind: 'a2a', a2a: { agent, ...(contextId ? { contextId } : {}) } },
      };
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

function isRemote(call: ToolCall): boolean {
  return remoteAgentOf(askedGoalId(call.args)) !== undefined;
}

/** The context of the last task this conversation gave the remote agent `goalId`, while its messages hold it. */
function lastContext(convo: BuiltinContext, goalId: string): string | undefined {
  for (let i = convo.log.messages.length - 1; i >= 0; i--) {
    const m = convo.log.messages[i]!;
    if (m.kind !== 'tool' || m.call.tool !== ASK_AGENT || askedGoalId(m.call.args) !== goalId) continue;
    const remote =
      m.outcome.status === 'ok' ? (m.outcome.result as { remote?: { contextId?: string } })?.remote : undefined;
    if (remote?.contextId) return remote.contextId;
  }
  return undefined;
}
