// What one run of a scenario saw: what was said, which tools ran (in the conversation and its delegates) with which
// arguments and outcomes, the approvals asked and answered, what it cost, and the demo data afterwards. The judge
// (judge.ts) checks it against the scenario; the report keeps it in the JSON.
import type { ToolOutcome, Usage } from '../core/types';

export interface ToolCallSeen {
  tool: string;
  args: Record<string, unknown>;
  /** How it ended; `none`: no outcome in the history (still waiting, or the run stopped). */
  outcome: ToolOutcome['status'] | 'none';
  /** The agent that called it: the scenario's, or a delegate's name. */
  agent: string;
}

export interface ApprovalSeen {
  tool: string;
  args: Record<string, unknown>;
  decision: 'approved' | 'rejected';
  reason?: string;
}

export interface RunObservation {
  conversationId: string;
  /** What the user said, in order. */
  said: string[];
  /** The agent's words after each turn and approval (the greeting first). */
  replies: string[];
  approvals: ApprovalSeen[];
  toolCalls: ToolCallSeen[];
  /** Model calls, delegates' included (the run view's count). */
  steps: number;
  /** From sending each turn or approval to the agent's answer, as a user waits for it. */
  latenciesMs: number[];
  usage: Usage;
  durationMs: number;
  /** The conversation ended by itself (CompleteGoal) before the eval ended it. */
  ended: boolean;
  /** The tools' demo data after the run, by dataset. */
  state: Record<string, unknown>;
  /** Why the run could not go on as the scenario says (a turn after the end, a timeout, an error). */
  error?: string;
}
