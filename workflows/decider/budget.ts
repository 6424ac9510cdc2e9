// What the conversation spent, in all and by goal, and whether it may spend more: checked before each model call,
// against the goal's own budget, else the operator's (CONVERSATION_TOKEN_BUDGET / CONVERSATION_COST_BUDGET).
import { formatUsd } from '../../core/format';
import type { Goal, Settings, Usage } from '../../core/types';
import { addUsage, ZERO_USAGE } from '../../core/usage';

export class Budget {
  usage: Usage;
  /** What each goal's agent spent in this conversation (a delegate's spending counts for its goal). */
  readonly usageByGoal: Record<string, Usage>;
  /** What each model's calls cost (`provider:model`, as the price table knows it); delegates' counted in theirs. */
  readonly usageByModel: Record<string, Usage>;

  /** The budget stops the conversation (RunVersions.budgets); runs from before budgets only count. */
  enforced = false;

  constructor(carried?: { usage: Usage; usageByGoal?: Record<string, Usage>; usageByModel?: Record<string, Usage> }) {
    this.usage = carried?.usage ?? ZERO_USAGE;
    this.usageByGoal = { ...carried?.usageByGoal };
    this.usageByModel = { ...carried?.usageByModel };
  }

  /** Counts what a model call (or a delegate) spent, for the conversation, for the goal it spent it on and, when
   * known, for each model that answered (`byModel`: a call's one model, or a delegate's own breakdown). */
  spend(usage: Usage, goalId: string, byModel?: Record<string, Usage>): void {
    this.usage = addUsage(this.usage, usage);
    this.usageByGoal[goalId] = addUsage(this.usageByGoal[goalId] ?? ZERO_USAGE, usage);
    for (const [model, spent] of Object.entries(byModel ?? {}))
      this.usageByModel[model] = addUsage(this.usageByModel[model] ?? ZERO_USAGE, spent);
  }

  /** What was spent, said against the budget it reached (the goal's own, else the settings'); null: within budget. */
  overBudget(goal: Goal, settings: Settings): string | null {
    if (!this.enforced) return null;
    const own = goal.settings?.budget;
    const budget = own ?? settings.budget;
    if (!budget) return null;
    const source = (setting: string) => (own ? `the ${goal.agentName} agent's budget` : setting);
    if (budget.tokens !== undefined && this.usage.totalTokens >= budget.tokens) {
      return `${this.usage.totalTokens.toLocaleString('en-US')} tokens of its ${budget.tokens.toLocaleString('en-US')} (${source('CONVERSATION_TOKEN_BUDGET')})`;
    }
    if (budget.costUsd !== undefined && (this.usage.costUsd ?? 0) >= budget.costUsd) {
      return `${formatUsd(this.usage.costUsd ?? 0)} of its ${formatUsd(budget.costUsd)} (${source('CONVERSATION_COST_BUDGET')})`;
    }
    return null;
  }
}

/** What the agent says when the budget stops the conversation (its transcript is kept). */
export function budgetStopText(spent: string): string {
  return `This conversation has used its budget: ${spent}. I have stopped here; start a new conversation to go on.`;
}
