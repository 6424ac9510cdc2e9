// A pending approval answered in the middle of send_message / start_conversation, when the MCP client can ask its
// user (it declared the elicitation capability): we ask with a small form (approve yes/no, a reason), decide the call
// through the conversation as approve_call / reject_call would, and go on until the agent needs the user for
// something else. A client that cannot ask, a user who declines or dismisses the form, or a question that times out
// leaves the approval pending: the caller gets it back and decides it with approve_call / reject_call.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AgentClient } from '../../client/agent-client';
import type { AgentReply, ConfirmDecision, PendingApproval } from '../../core/conversation-types';
import type { Turn } from './shapes';

/** A person may take a while to read a proposed call; past this the call is left pending for approve_call. */
const ASK_TIMEOUT_MS = 10 * 60_000;
/** Calls asked about in one tool call at most (a goal's chain of approvals is a handful); the rest stay pending. */
const MAX_ASKS = 10;

const FORM = {
  type: 'object' as const,
  properties: {
    approve: { type: 'boolean' as const, title: 'Approve', description: 'Run the call as proposed' },
    reason: { type: 'string' as const, title: 'Reason', description: 'Told to the agent when you reject it' },
  },
  required: ['approve'],
};

/** What the tool call needs to ask its own client: the request it answers, and its abort signal. */
export interface AskContext {
  server: McpServer;
  requestId: string | number;
  signal: AbortSignal;
}

export function canAsk(server: McpServer): boolean {
  return !!server.server.getClientCapabilities()?.elicitation?.form;
}

/** Asks about each pending approval in turn; the reply after the last decision, and the decisions taken. */
export async function settleApprovals(
  agents: AgentClient,
  id: string,
  reply: AgentReply,
  ask: AskContext,
): Promise<{ reply: AgentReply; decided: NonNullable<Turn['decided']> }> {
  const decided: NonNullable<Turn['decided']> = [];
  let current = reply;
  while (current.pendingToolCall && !current.ended && canAsk(ask.server) && decided.length < MAX_ASKS) {
    const pending = current.pendingToolCall;
    const decision = await askUser(pending, ask);
    if (!decision) break;
    current = await agents.confirm(id, decision);
    decided.push({
      callId: pending.call.id,
      tool: pending.call.tool,
      approved: decision.approve,
      ...(decision.approve ? {} : { reason: decision.reason }),
    });
  }
  return { reply: current, decided };
}

/** The user's decision, or null when there is none (declined, dismissed, timed out, the client failed). */
async function askUser(pending: PendingApproval, ask: AskContext): Promise<ConfirmDecision | null> {
  const who = pending.delegate ? pending.delegate.agentName : 'The agent';
  const message =
    `${who} wants to run ${pending.call.tool}${pending.description ? ` (${pending.description})` : ''} with ` +
    `${JSON.stringify(pending.call.args)}. Approve?`;
  try {
    const result = await ask.server.server.elicitInput(
      { mode: 'form', message, requestedSchema: FORM },
      // On the tool call's own stream: a client need not keep a standalone stream open to be asked.
      { relatedRequestId: ask.requestId, timeout: ASK_TIMEOUT_MS, signal: ask.signal },
    );
    const approve = result.action === 'accept' ? result.content?.approve : undefined;
    if (typeof approve !== 'boolean') return null;
    if (approve) return { approve: true, callId: pending.call.id };
    const reason = typeof result.content?.reason === 'string' ? result.content.reason.trim() : '';
    return { approve: false, reason: reason || 'The user rejected it.', callId: pending.call.id };
  } catch {
    return null;
  }
}
