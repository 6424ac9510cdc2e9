// When a tool call waits for the user, and which answers to a pending call are taken. Pure rules, shared by the
// conversation's decisions and its update validators.
import type { Goal, Settings, ToolCall, ToolSpec } from '../../core/types';
import type { ConfirmDecision, UnattendedRun } from '../../core/conversation-types';
import type { Delegations } from './delegations';

/** A call that waits for the user, and the user's answer once given. */
export interface PendingCall {
  call: ToolCall;
  decision: ConfirmDecision | null;
}

/**
 * The tool's own policy, then the goal's, then the operator's list of tools that need no approval
 * (APPROVAL_EXEMPT_TOOLS), then SHOW_CONFIRM. A goal may tighten a tool's `never`, never loosen `always`; a goal
 * file's `never` reaches read-only tools only (goals/goal-registry.ts), so only code or the operator can exempt a tool
 * that changes things.
 */
export function needsApproval(spec: ToolSpec, goal: Goal, settings: Settings): boolean {
  if (spec.approval === 'always') return true;
  const goalPolicy = goal.settings?.approval;
  if (goalPolicy === 'always') return true;
  if (spec.approval === 'never' || goalPolicy === 'never') return false;
  if (settings.approvalExemptTools?.includes(spec.name)) return false;
  return settings.showConfirm;
}

/**
 * A run nobody watches (a schedule's): its policy's answer for a call that needs approval, or null when the call
 * waits for the owner as in any conversation (`ask`). `auto` approves only the tools it names, and never a tool whose
 * own or goal's policy is `always`.
 */
export function unattendedDecision(run: UnattendedRun | undefined, spec: ToolSpec, goal: Goal): ConfirmDecision | null {
  if (!run || run.approvals === 'ask') return null;
  const always = spec.approval === 'always' || goal.settings?.approval === 'always';
  if (typeof run.approvals === 'object' && run.approvals.auto.includes(spec.name) && !always) return { approve: true };
  return {
    approve: false,
    reason:
      `this run was started by the ${run.source} "${run.name}" with nobody to approve ${spec.name}: ` +
      'do not call it again; say what you would have done instead',
  };
}

/** Why an answer to the pending call is refused, or null when it can be taken. */
export function confirmRefusal(pending: PendingCall | null, decision: ConfirmDecision, ended: boolean): string | null {
  if (ended) return 'the conversation has ended';
  if (!pending) return 'no tool call is waiting for approval';
  if (pending.decision) return 'this tool call was already answered';
  if (decision.callId && decision.callId !== pending.call.id) {
    return `tool call ${decision.callId} is not the pending one (${pending.call.id})`;
  }
  if (decision.approve === false && !decision.reason?.trim()) return 'a rejection needs a reason';
  return null;
}

/** This conversation's own call waiting for the user (a delegate's waits in the delegate), and the answer given. */
export class Approvals {
  private pending: PendingCall | null = null;

  /** A call waits and the user has not answered yet. */
  awaiting(): boolean {
    return this.pending !== null && this.pending.decision === null;
  }

  /** A call was put to the user and has not run or been declined since (continue-as-new waits for it). */
  open(): boolean {
    return this.pending !== null;
  }

  /** The call put to the user, answered or not. */
  get call(): ToolCall | null {
    return this.pending?.call ?? null;
  }

  ask(call: ToolCall): void {
    this.pending = { call, decision: null };
  }

  /** The call `callId` waits for the user's answer. */
  waitsFor(callId: string): boolean {
    return this.pending?.call.id === callId && this.pending.decision === null;
  }

  /** The user's answer to the call `callId`, once given. */
  decisionFor(callId: string): ConfirmDecision | null {
    return this.pending?.call.id === callId ? this.pending.decision : null;
  }

  private answer(decision: ConfirmDecision): void {
    if (this.pending) this.pending.decision = decision;
  }

  /** The user's answer: to this conversation's call, or to the delegate's call shown here (it goes down to it).
   * Returns why it is refused, or null when it was taken. */
  confirm(decision: ConfirmDecision, delegations: Delegations, ended: boolean): string | null {
    const refusal = this.refusal(decision, delegations, ended);
    if (refusal !== null) return refusal;
    if (this.awaiting()) this.answer(decision);
    else delegations.answerApproval(decision);
    return null;
  }

  /** Why an answer is refused, or null: the update's validator throws it. */
  refusal(decision: ConfirmDecision, delegations: Delegations, ended: boolean): string | null {
    const asked = this.awaiting() ? null : delegations.approvalShown();
    return confirmRefusal(asked ? { call: asked.approval.call, decision: null } : this.pending, decision, ended);
  }

  /** The call ran or was declined: nothing waits any more. */
  settled(callId: string): void {
    if (this.pending?.call.id === callId) this.pending = null;
  }
}
