// What the conversation tells whoever waits for it when it next needs the user: the reply (what it asks, else its
// words) and the approval it waits for. Read-only, from the parts of a Conversation named here.
import type * as C from '../../core/conversation-types';
import type { Approvals } from './approvals';
import type { Builtin } from './builtins/builtin';
import type { Delegations } from './delegations';
import type { MessageLog } from './message-log';
import type { Prompts } from './prompts';
import type { Questions } from './questions';
import type { ToolOffer } from './tool-offer';

export interface ReplyHost {
  readonly ended: boolean;
  readonly approvals: Approvals;
  readonly delegations: Delegations;
  readonly questions: Questions;
  readonly offer: ToolOffer;
  readonly builtins: { table: Record<string, Builtin> };
  readonly log: MessageLog;
  readonly prompts: Prompts;
  pendingApproval(): C.PendingApproval | null;
}

/** The tool call waiting for the user's approval (here, or a delegate's shown here), with the words it is shown with. */
export function pendingApprovalOf(convo: ReplyHost): C.PendingApproval | null {
  const call = convo.approvals.call;
  if (!convo.approvals.awaiting() || !call) return convo.delegations.approvalShown()?.approval ?? null;
  const spec = convo.offer.find(call.tool);
  const text = spec && convo.builtins.table[spec.name]?.approvalText;
  const description = (typeof text === 'function' ? text(call) : text) ?? spec?.description ?? '';
  return { call, tool: call.tool, description };
}

/** The agent's reply now that it needs the user: what it asks (a tool's or a delegate's question), else its words. */
export function replyNow(convo: ReplyHost): C.AgentReply {
  // A delegate's question still open is what the user must answer, whatever was said since.
  const asked = convo.approvals.awaiting() ? null : convo.delegations.questionShown();
  const question = convo.ended ? null : convo.questions.open();
  const reply = question
    ? `${question.delegate ? `${question.delegate.agentName}: ` : ''}${question.tool} asks: ${question.message}`
    : asked && !convo.delegations.approvalShown()
      ? `${asked.agentName} asks: ${asked.question}`
      : convo.log.latestAgentText();
  return {
    promptId: convo.prompts.active,
    reply,
    pendingToolCall: convo.pendingApproval(),
    ...(question ? { question } : {}),
    ended: convo.ended,
  };
}
