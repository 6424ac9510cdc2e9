// How each effect's result changes the conversation (Conversation.apply): one function per effect kind, checked by the
// compiler against the effect's result type. The builtin tools bring their own.
import { BUILTIN_RUN_OF, type BuiltinRunHost } from '../../core/builtin-runs';
import type { Appliers } from '../../core/effects';
import type { ToolOutcome } from '../../core/types';
import type { BuiltinAppliers } from './builtins';
import type { Builtin, BuiltinContext } from './builtins/builtin';
import { moveGoal, switchByClient } from './builtins/change-goal';
import type { Budget } from './budget';
import { recordDecisions } from './hook-decisions';
import type { Prompts } from './prompts';
import type { Turn } from './turn';

/** What the appliers change of the conversation (Conversation implements it). */
export interface ApplierHost extends BuiltinContext {
  readonly turn: Turn;
  readonly budget: Budget;
  readonly prompts: Prompts;
  readonly builtins: { table: Record<string, Builtin>; appliers: BuiltinAppliers };
}

/** What a builtin run's answer may change (core/builtin-run.ts). */
function builtinRunHost(convo: ApplierHost): BuiltinRunHost {
  return {
    found: (names) => convo.offer.found(names),
    made: (spec) => convo.offer.extend(spec, convo.taskMode.adapt),
    // The picker's list of agents includes the new one from the next step on.
    agentMade: () => {
      if (convo.settings.multiGoal) convo.followWith({ kind: 'list_agents' });
    },
  };
}

export function appliersFor(convo: ApplierHost): Appliers {
  return {
    validate: (effect, verdict) => convo.turn.applyVerdict(effect.prompt, verdict),
    vet_and_plan: (effect, verdict) => convo.turn.applyVettedPlan(verdict, effect.prompt),
    plan: (_effect, plan) => convo.turn.applyPlan(plan),
    // What the tool's use of our model cost (an MCP server's sampling) counts like the conversation's own calls.
    // What hooks decided about the call follows its outcome, as notes.
    run_tool: (effect, { spent, hooks, answer, ...result }) => {
      const outcome = result as ToolOutcome;
      if (spent) convo.budget.spend(spent, convo.goal.id);
      // A builtin's check that passed: the call is put to the user next (one that did not is the call's outcome).
      if (effect.check && outcome.status === 'ok')
        return convo.builtins.table[effect.call.tool]?.checked?.(effect.call, outcome);
      // A builtin's answer may change the conversation (SearchTools offers what it found): before it is recorded.
      if (effect.spec.kind === 'builtin' && outcome.status === 'ok')
        BUILTIN_RUN_OF[effect.spec.name]?.took?.(answer, builtinRunHost(convo));
      convo.record(effect.call, outcome);
      recordDecisions(convo.log, hooks);
    },
    resolve_goal: (effect, resolved) => {
      if (effect.why === 'refresh') {
        const changed = convo.offer.refreshed(effect.promptId, resolved, convo.taskMode.adapt);
        if (changed) convo.log.note(changed);
      } else if (effect.why === 'switch') switchByClient(convo, resolved);
      else moveGoal(convo, effect, resolved);
    },
    // Another delegate's approval or question is still shown: the user is needed again now, so the update that sent
    // this answer returns with that wait, not when the whole step is over.
    answer_delegate: () => {
      if (convo.delegations.waitShown() && !convo.delegations.hasAnswersToSend()) convo.pause();
    },
    ...convo.builtins.appliers,
  };
}
