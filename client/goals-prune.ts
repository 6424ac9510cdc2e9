// `agent goal-files prune --unused-for <duration> [--yes]`: the agents created in chats (CreateAgent) that no
// conversation has used for that long, listed; with --yes, disabled (their files set aside, `agent goal-files enable`
// brings one back). A goal counts as used by a conversation whose goal it is, as Temporal's list knows it (the
// AgentGoal search attribute: a conversation's current goal, delegates included); hand-written and code goals are
// never proposed.
import type { GoalFileSummary } from '../core/activity-types';
import type { AgentClient } from './agent-client';

export interface UnusedGoal {
  goalId: string;
  file: string;
  /** When CreateAgent wrote it, and in which conversation. */
  createdAt: string;
  createdBy: string;
  /** The start of the newest conversation with this goal; null when none. */
  lastUsed: string | null;
}

export interface GoalsPrune {
  /** Goals unused (or, never used, created) before this time. */
  before: string;
  unused: UnusedGoal[];
  /** Set with --yes: the goals disabled. */
  disabled: string[];
}

/** The chat-created goals idle for `seconds`; with `disable`, each is disabled too. */
export async function pruneGoals(
  client: Pick<AgentClient, 'goalFiles' | 'list' | 'manageGoal'>,
  seconds: number,
  disable: boolean,
  now = new Date(),
): Promise<GoalsPrune> {
  const before = new Date(now.getTime() - seconds * 1000).toISOString();
  const created = (await client.goalFiles()).filter(
    (f): f is GoalFileSummary & { provenance: NonNullable<GoalFileSummary['provenance']> } =>
      !!f.provenance && !f.disabled,
  );
  const unused: UnusedGoal[] = [];
  for (const f of created) {
    // Temporal lists the newest first.
    const [newest] = await client.list({ goal: f.goalId, limit: 1 });
    const lastUsed = newest?.startedAt ?? null;
    if (Date.parse(lastUsed ?? f.provenance.createdAt) >= Date.parse(before)) continue;
    unused.push({
      goalId: f.goalId,
      file: f.file,
      createdAt: f.provenance.createdAt,
      createdBy: f.provenance.createdBy,
      lastUsed,
    });
  }
  const disabled: string[] = [];
  if (disable) for (const g of unused) disabled.push((await client.manageGoal('disable', g.goalId)).goalId);
  return { before, unused, disabled };
}

export function formatGoalsPrune(pruned: GoalsPrune, unusedFor: string): string {
  if (!pruned.unused.length) return `No agent created in a chat has been unused for ${unusedFor}.`;
  const head = pruned.disabled.length
    ? `Disabled ${pruned.disabled.length} agent(s) created in chats and unused for ${unusedFor} (agent goal-files enable <goalId> brings one back):`
    : `${pruned.unused.length} agent(s) created in chats are unused for ${unusedFor}; nothing was disabled. Run again with --yes to disable them:`;
  const lines = pruned.unused.map(
    (g) =>
      `  ${g.goalId}  created ${g.createdAt.slice(0, 10)} in ${g.createdBy}; ` +
      (g.lastUsed ? `last used ${g.lastUsed.slice(0, 10)}` : 'never used'),
  );
  return [head, ...lines].join('\n');
}
