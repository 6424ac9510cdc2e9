// What the MCP tools answer: each tool's structured content (its outputSchema, checked by the SDK before it is sent)
// and the same as readable text, in the words the CLI uses, for clients and models that read only text.
import { z } from 'zod';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { UserError } from '../../core/user-error';
import type { AgentReply, PendingApproval } from '../../core/conversation-types';
import type { ToolQuestion } from '../../core/tool-questions';
import { formatReply } from '../../client/terminal-format';

export const conversationId = z.string().min(1).max(200).describe('The conversation id start_conversation answered');

export const approvalShape = z.object({
  callId: z.string().describe('Pass it to approve_call / reject_call, so a newer call is never decided by mistake'),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  description: z.string(),
  agent: z.string().optional().describe("Set when the call is a delegate agent's"),
});

export const decisionShape = z.object({
  callId: z.string(),
  tool: z.string(),
  approved: z.boolean(),
  reason: z.string().optional(),
});

export const questionShape = z.object({
  questionId: z.string().describe('Pass it to answer_question, so a newer question is never answered by mistake'),
  tool: z.string(),
  kind: z.enum(['form', 'url', 'sampling']),
  message: z.string(),
  schema: z.record(z.string(), z.unknown()).optional().describe('form: the fields to fill in, as JSON Schema'),
  url: z.string().optional().describe('url: the page the user is asked to open'),
  samplingPrompt: z.string().optional().describe("sampling: what the tool wants the agent's model to answer"),
});

export const answeredShape = z.object({
  questionId: z.string(),
  tool: z.string(),
  action: z.enum(['accept', 'decline', 'cancel']),
});

/** An agent's turn: what start_conversation, send_message, the approval tools and answer_question answer. */
export const turnShape = {
  conversationId: z.string(),
  reply: z.string().describe("The agent's words ('' when it only proposes a tool call)"),
  pendingApproval: approvalShape
    .nullable()
    .describe('A tool call waiting for approve_call or reject_call; the agent does nothing until it is decided'),
  ended: z.boolean(),
  decided: z
    .array(decisionShape)
    .optional()
    .describe('Approvals the user answered through elicitation during this call, in order'),
  question: questionShape
    .optional()
    .describe(
      "A question a running tool asks the user (an MCP server's form, link or request for the model): answer it with answer_question",
    ),
  answered: z
    .array(answeredShape)
    .optional()
    .describe("Tools' questions the user answered through elicitation during this call, in order"),
};

export interface Turn {
  [key: string]: unknown;
  conversationId: string;
  reply: string;
  pendingApproval: z.infer<typeof approvalShape> | null;
  ended: boolean;
  decided?: z.infer<typeof decisionShape>[];
  question?: z.infer<typeof questionShape>;
  answered?: z.infer<typeof answeredShape>[];
}

export function approvalOf(pending: PendingApproval | null): Turn['pendingApproval'] {
  if (!pending) return null;
  return {
    callId: pending.call.id,
    tool: pending.call.tool,
    args: pending.call.args,
    description: pending.description,
    ...(pending.delegate ? { agent: pending.delegate.agentName } : {}),
  };
}

export function questionOf(q: ToolQuestion): NonNullable<Turn['question']> {
  return {
    questionId: q.id,
    tool: q.tool,
    kind: q.kind,
    message: q.message,
    ...(q.schema ? { schema: { ...q.schema } } : {}),
    ...(q.url ? { url: q.url } : {}),
    ...(q.sampling ? { samplingPrompt: q.sampling.prompt } : {}),
  };
}

export function turnOf(id: string, reply: AgentReply | null, settled: Pick<Turn, 'decided' | 'answered'> = {}): Turn {
  return {
    conversationId: id,
    reply: reply?.reply ?? '',
    pendingApproval: approvalOf(reply?.pendingToolCall ?? null),
    ended: reply?.ended ?? false,
    ...(settled.decided?.length ? { decided: settled.decided } : {}),
    ...(reply?.question ? { question: questionOf(reply.question) } : {}),
    ...(settled.answered?.length ? { answered: settled.answered } : {}),
  };
}

/** The turn as text: the decisions taken, the reply as the CLI prints it, and how to answer a pending call. */
export function turnText(turn: Turn, reply: AgentReply | null): string {
  const lines = (turn.decided ?? []).map(
    (d) => `(${d.approved ? 'approved' : `rejected${d.reason ? `: ${d.reason}` : ''}`} ${d.tool} ${d.callId})`,
  );
  lines.push(...(turn.answered ?? []).map((a) => `(${a.tool}'s question: ${a.action})`));
  lines.push(`conversation ${turn.conversationId}`, formatReply(reply));
  if (turn.pendingApproval)
    lines.push(
      `Decide it: approve_call {conversationId: "${turn.conversationId}", callId: "${turn.pendingApproval.callId}"} ` +
        `(args to run it with edited args) or reject_call with a reason.`,
    );
  if (turn.question)
    lines.push(
      `Answer it: answer_question {conversationId: "${turn.conversationId}", questionId: "${turn.question.questionId}", ` +
        `action: "accept" | "decline" | "cancel"${turn.question.schema ? ', content: {…the fields…}' : ''}}.`,
    );
  return lines.join('\n');
}

/** A tool's answer: the structured content and its text. */
export function answer(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

/** A refusal the caller can act on (unknown id, nothing to approve, an ended conversation), as a tool error. */
export function refusal(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Refusals (an unknown or ended conversation, nothing to approve, an unknown goal, no worker) answer as tool errors
 * in the client's own words; anything else is logged here and told only that it happened, as the REST API does.
 */
export function guarded<A>(
  run: (args: A, extra: Extra) => Promise<CallToolResult>,
): (args: A, extra: Extra) => Promise<CallToolResult> {
  return async (args, extra) => {
    try {
      return await run(args, extra);
    } catch (err) {
      if (err instanceof UserError) return refusal(err.message);
      console.error(err);
      return refusal('Internal error; the API log has the details.');
    }
  };
}
