// Who plays the user in a run: the scenario's scripted turns, or a model given a persona and a goal
// (simulated-user.ts). The runner asks it what to say next, and how to answer an approval the scenario leaves open.
import type { ConfirmDecision, PendingApproval } from '../core/conversation-types';

export type Decision = { approve: true; args?: Record<string, unknown> } | { approve: false; reason: string };

export interface EvalUser {
  /** What the user says after the agent's words; null when the user has nothing more to say. */
  next(agentWords: string): Promise<string | null>;
  /** How the user answers the agent's request to run a tool (when the scenario's approvals do not say). */
  decide(pending: PendingApproval): Promise<Decision>;
  /** Set when the user stopped short of its goal (a played user out of turns): why. */
  readonly unfinished?: string;
}

/** The scenario's turns, one per call; every approval it does not answer itself is given. */
export class ScriptedTurns implements EvalUser {
  private said = 0;

  constructor(private readonly turns: string[]) {}

  async next(): Promise<string | null> {
    return this.turns[this.said++] ?? null;
  }

  async decide(): Promise<Decision> {
    return { approve: true };
  }
}

/** A decision as the confirm update takes it, for the call waiting (a delegate's, too). */
export function confirmOf(decision: Decision, pending: PendingApproval): ConfirmDecision {
  return { ...decision, callId: pending.call.id };
}
