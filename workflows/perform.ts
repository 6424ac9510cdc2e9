// Performing effects: the one place activities are scheduled and delegates started. Each effect kind has exactly
// one performer (Performers, checked by the compiler); its result goes back to Conversation.apply. A tool call, of
// whatever kind, is one effect (run_tool) whose kind's runner is in tool-kinds.ts.
import {
  CancellationScope,
  getExternalWorkflowHandle,
  ParentClosePolicy,
  patched,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { DelegateAnswer, DelegateStart, DelegateStarted, Performers } from '../core/effects';
import { answerToolQuestionSignal, confirmSignal, userPromptSignal } from '../core/messages';
import type { AgentGoalInput, Transcript } from '../core/conversation-types';
import { listAgents, planTurn, resolveGoal, validatePrompt, vetAndPlan } from './activity-stubs';
import type { Conversation } from './decider/conversation';
import { DEFAULT_DELEGATION_LIMITS } from './decider/delegations';
import { envelopeOf, envelopeOfFailure } from './envelope';
import { failSoft } from './failures';
import { withFallback } from './fallback';
import { kindOf, TOOL_KINDS } from './tool-kinds';
import { PATCHES, type RunVersions } from './versions';

/** What performing needs beyond the conversation. */
export interface PerformContext {
  /** The workflow a delegate runs (this one, started as a child). */
  workflow: (input: AgentGoalInput) => Promise<Transcript>;
  versions: () => RunVersions;
  /** Each delegate at work, by its AskAgent call: cancelling the turn cancels them too. */
  delegates: Map<string, CancellationScope>;
}

export function performers(convo: Conversation, ctx: PerformContext): Performers {
  /** HEARTBEAT_TIMEOUT, read at each call from the settings the conversation has then. */
  const heartbeat = () => convo.settings.heartbeatTimeoutSeconds;
  /** The agent a model call serves, for its summary in the Temporal UI (a plan request may name its goal by number). */
  const agent = () => convo.goal.agentName;
  return {
    validate: ({ request }) =>
      withFallback(convo, (model, giveUp) => validatePrompt({ ...request, ...model }, giveUp, heartbeat())),
    vet_and_plan: ({ request }) =>
      withFallback(convo, (model, giveUp) => vetAndPlan({ ...request, ...model }, giveUp, heartbeat(), agent())),
    plan: ({ request }) =>
      withFallback(convo, (model, giveUp) => planTurn({ ...request, ...model }, giveUp, heartbeat(), agent())),
    run_tool: ({ call, spec, check }) =>
      TOOL_KINDS[kindOf(spec)]({ call, spec, check, convo, waitWhenCancelled: !!ctx.versions().cancelAndExpire }),
    list_agents: () => failSoft(() => listAgents()),
    resolve_goal: (effect) =>
      failSoft(() => resolveGoal(effect.goalId, effect.why, effect.why === 'refresh' ? effect.known : undefined)),
    check_version: async ({ patchId }) => patched(patchId),
    start_delegates: ({ delegates }) => Promise.all(delegates.map((d) => startDelegate(convo, ctx, d))),
    answer_delegate: ({ childId, answer }) => answerDelegate(childId, answer),
  };
}

/** Starts one delegate as a child conversation and, in its own scope, hands its envelope back when it ends. */
async function startDelegate(
  convo: Conversation,
  { workflow, delegates }: PerformContext,
  { call, childId, input }: DelegateStart,
): Promise<DelegateStarted> {
  // Delegation adds commands (child workflows); versioned like every such change.
  if (!patched(PATCHES.delegation)) {
    return { callId: call.id, failed: 'this conversation started before delegation existed' };
  }
  const { timeoutSeconds } = convo.settings.delegation ?? DEFAULT_DELEGATION_LIMITS;
  const scope = new CancellationScope();
  delegates.set(call.id, scope);
  let started: (value: DelegateStarted) => void = () => undefined;
  const startedOrNot = new Promise<DelegateStarted>((resolve) => (started = resolve));
  void scope
    .run(async () => {
      const child = await startChild(workflow, {
        workflowId: childId,
        args: [input],
        // Ending the parent cancels its delegates (their tools hear the cancel), rather than killing them.
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        workflowExecutionTimeout: `${timeoutSeconds} seconds`,
        // A delegate recovers from a lost worker as fast as its parent: Temporal would give it the namespace default
        // (10 s) rather than the parent's. Replay compares a child's type and id, not its timeouts.
        workflowTaskTimeout: workflowInfo().taskTimeoutMs,
        staticSummary: `delegate: ${input.goalId}`,
      });
      started({ callId: call.id, started: true });
      const result = await child.result();
      convo.applyEnvelope(call.id, envelopeOf(result), result?.usageByModel);
    })
    .catch((err: unknown) => {
      started({ callId: call.id, failed: (err as Error).message ?? String(err) });
      convo.applyEnvelope(call.id, envelopeOfFailure(err, timeoutSeconds));
    })
    .finally(() => delegates.delete(call.id));
  return startedOrNot;
}

/** The user's answer goes down to the delegate: its confirm, or its AskUser answer as a prompt. */
async function answerDelegate(childId: string, answer: DelegateAnswer): Promise<true | { failed: string }> {
  const child = getExternalWorkflowHandle(childId);
  try {
    if ('confirm' in answer) await child.signal(confirmSignal, answer.confirm);
    else if ('question' in answer) await child.signal(answerToolQuestionSignal, answer.question);
    else await child.signal(userPromptSignal, answer.reply);
    return true;
  } catch (err) {
    return { failed: (err as Error).message };
  }
}
