// What the agent waits on, asked of the MCP client's user in the middle of a tool call when the client can ask (it
// declared the elicitation capability): a pending approval, as a small form (approve yes/no, a reason), decided through
// the conversation as approve_call / reject_call would; a question one of the agent's own tools asks (an MCP server's
// form or link, a request for the agent's model), passed on as it was asked and answered as answer_question would.
// Then the next, until the agent needs the user for something else. A client that cannot ask, a user who declines or
// dismisses an approval form, or no answer in time leaves the approval or question open: the caller gets it back.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import type { AgentClient } from '../../client/agent-client';
import type { AgentReply, ConfirmDecision, PendingApproval } from '../../core/conversation-types';
import type { QuestionAnswer, ToolQuestion } from '../../core/tool-questions';
import type { Turn } from './shapes';

/** A person may take a while to read a proposed call; past this the call is left pending for approve_call. */
const ASK_TIMEOUT_MS = 10 * 60_000;
/** Things asked about in one tool call at most (a goal's chain of approvals is a handful); the rest stay open. */
const MAX_ASKS = 10;

const APPROVAL_FORM = {
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
  /** Told when an answer is sent to the conversation (live views look at once). */
  touched?: (id: string) => void;
}

export interface Settled {
  reply: AgentReply;
  decided: NonNullable<Turn['decided']>;
  answered: NonNullable<Turn['answered']>;
}

/** Asks about each approval and question in turn; the reply after the last answer, and what was answered. */
export async function settleByAsking(
  agents: AgentClient,
  id: string,
  reply: AgentReply,
  ask: AskContext,
): Promise<Settled> {
  const settled: Settled = { reply, decided: [], answered: [] };
  for (let asks = 0; asks < MAX_ASKS && !settled.reply.ended; asks++) {
    const { pendingToolCall: pending, question } = settled.reply;
    if (pending) {
      const decision = await askApproval(pending, ask);
      if (!decision) break;
      const reply = agents.confirm(id, decision);
      ask.touched?.(id);
      settled.reply = await reply;
      settled.decided.push({
        callId: pending.call.id,
        tool: pending.call.tool,
        approved: decision.approve,
        ...(decision.approve ? {} : { reason: decision.reason }),
      });
    } else if (question) {
      const answer = await passOn(question, ask);
      if (!answer) break;
      const reply = agents.answer(id, { questionId: question.id, answer });
      ask.touched?.(id);
      settled.reply = await reply;
      settled.answered.push({ questionId: question.id, tool: question.tool, action: answer.action });
    } else break;
  }
  return settled;
}

/** The user's decision, or null when there is none (cannot ask, declined, dismissed, timed out, the client failed). */
async function askApproval(pending: PendingApproval, ask: AskContext): Promise<ConfirmDecision | null> {
  if (!canAsk(ask, 'form')) return null;
  const who = pending.delegate ? pending.delegate.agentName : 'The agent';
  const message =
    `${who} wants to run ${pending.call.tool}${pending.description ? ` (${pending.description})` : ''} with ` +
    `${JSON.stringify(pending.call.args)}. Approve?`;
  const result = await elicit(ask, { mode: 'form', message, requestedSchema: APPROVAL_FORM });
  const approve = result?.action === 'accept' ? result.content?.approve : undefined;
  if (typeof approve !== 'boolean') return null;
  if (approve) return { approve: true, callId: pending.call.id };
  const reason = typeof result?.content?.reason === 'string' ? result.content.reason.trim() : '';
  return { approve: false, reason: reason || 'The user rejected it.', callId: pending.call.id };
}

/** A tool's question as its server asked it; the user's answer (a decline too is one), or null when none came. */
async function passOn(question: ToolQuestion, ask: AskContext): Promise<QuestionAnswer | null> {
  const asks = `${question.tool} asks: ${question.message}`;
  if (question.kind === 'url') {
    if (!question.url || !canAsk(ask, 'url')) return null;
    const result = await elicit(ask, { mode: 'url', message: asks, url: question.url, elicitationId: question.id });
    return result && { action: result.action };
  }
  if (!canAsk(ask, 'form')) return null;
  const result =
    question.kind === 'form' && question.schema
      ? await elicit(ask, {
          mode: 'form',
          message: asks,
          requestedSchema: question.schema as ElicitRequestFormParams['requestedSchema'],
        })
      : // A request for the agent's model: the user allows it or not, nothing to fill in.
        await elicit(ask, {
          mode: 'form',
          message: `${question.tool} asks the agent's model: ${question.sampling?.prompt ?? question.message}. Allow?`,
          requestedSchema: { type: 'object', properties: {} },
        });
  if (!result) return null;
  return result.action === 'accept' && result.content
    ? { action: 'accept', content: result.content as Extract<QuestionAnswer, { action: 'accept' }>['content'] }
    : { action: result.action };
}

function canAsk({ server }: AskContext, mode: 'form' | 'url'): boolean {
  return !!server.server.getClientCapabilities()?.elicitation?.[mode];
}

/** The client's answer, or null when it could not ask (it failed, the call was cancelled, nobody answered in time). */
async function elicit(ask: AskContext, params: Parameters<McpServer['server']['elicitInput']>[0]) {
  try {
    // On the tool call's own stream: a client need not keep a standalone stream open to be asked.
    return await ask.server.server.elicitInput(params, {
      relatedRequestId: ask.requestId,
      timeout: ASK_TIMEOUT_MS,
      signal: ask.signal,
    });
  } catch {
    return null;
  }
}
