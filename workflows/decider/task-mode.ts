// Task mode: a conversation started by another agent's AskAgent call (a delegate). Its one turn is the task; it asks
// the user through AskUser (the question travels up through its parent) instead of switching or listing agents; it
// ends with one envelope for its parent. A user's own conversation has no task, and every answer here is "no".
import { ASK_USER, BUILTIN_TOOLS, CHANGE_GOAL, LIST_AGENTS, isBuiltinTool } from '../../core/builtin-specs';
import type { ToolCall, ToolSpec, Usage } from '../../core/types';
import type { DelegateEnvelope, DelegateTask, DelegateWait, PendingApproval } from '../../core/conversation-types';
import type { ToolQuestion } from '../../core/tool-questions';
import type { MessageLog } from './message-log';

export class TaskMode {
  /** The AskUser call waiting for the user's answer. */
  private question: ToolCall | null = null;
  /** The answer for the parent, once the task is done. */
  envelope: DelegateEnvelope | null = null;

  constructor(readonly task: DelegateTask | undefined) {}

  /** A delegate's tools: AskUser instead of ListAgents and ChangeGoal. */
  readonly adapt = (tools: ToolSpec[]): ToolSpec[] =>
    this.task
      ? [...tools.filter((t) => t.name !== LIST_AGENTS && t.name !== CHANGE_GOAL), BUILTIN_TOOLS[ASK_USER]!]
      : tools;

  /** The AskUser call `call` waits for the user's answer. */
  ask(call: ToolCall): void {
    this.question = call;
  }

  asking(callId?: string): boolean {
    return this.question !== null && (callId === undefined || this.question.id === callId);
  }

  /** The question as asked ('' when none). */
  questionText(): string {
    return String(this.question?.args.question ?? '');
  }

  /** The question was answered, or declined with the calls of its step. */
  settled(remaining: ToolCall[]): void {
    if (this.question && !remaining.includes(this.question)) this.question = null;
  }

  answered(): void {
    this.question = null;
  }

  /** What this delegate waits for from the user, as its parent shows it; null when it waits for nothing. `asked`: a
   * question one of its tools asks (or one its own delegate's tool asks, passed on up). */
  wait(
    ownApproval: PendingApproval | null,
    below: DelegateWait | null,
    asked: ToolQuestion | null = null,
  ): DelegateWait | null {
    if (this.question) return { kind: 'question', question: this.questionText(), callId: this.question.id };
    if (asked) return { kind: 'tool_question', question: asked };
    // Its own approval, or what one of its own delegates waits for, passed on up.
    return ownApproval ? { kind: 'approval', approval: ownApproval } : below;
  }

  /** The task is over: the envelope is what the parent gets, with the result of the last real tool call. */
  finish(status: DelegateEnvelope['status'], summary: string | undefined, log: MessageLog, usage: Usage): void {
    const data = log.lastResult((tool) => !isBuiltinTool(tool));
    this.envelope = {
      status,
      summary: summary?.trim() || log.latestAgentText() || (status === 'ok' ? 'Done.' : `Stopped (${status}).`),
      ...(data !== undefined ? { data } : {}),
      usage,
    };
  }
}
