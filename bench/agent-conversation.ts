// An agent conversation as a benchmark session: an AgentGoalWorkflow receiving the same prompt every turn. It is
// started and greeted outside the timed window; closing it checks the transcript, so a run that silently took
// another path (no tool call, a failed tool) fails instead of reporting a fast number.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { AgentGoalWorkflow } from '../workflows';
import { endChatSignal, promptUpdate, usageQuery } from '../core/messages';
import type { AgentReply, Transcript } from '../core/conversation-types';
import { abortWorkflow, type Session, type SessionEnd } from './session-rotation';
import { waitForGreeting } from './stats';

export interface AgentConversationSpec {
  name: string;
  /** Workflow ids are bench-<slug>-<run id>-<n>. */
  slug: string;
  goalId: string;
  prompt: string;
  /** The reply every turn must end with. */
  reply: string;
  /** The tool every turn calls once (its result must be ok); none for a text-only turn. */
  tool?: string;
  /** Whose conversation it is (whose memories it recalls); none: the local user's. */
  owner?: string;
}

/** How a turn's prompt reaches the conversation: the prompt update by default; the API benchmark also sends it over HTTP. */
export type SendPrompt = (workflowId: string, prompt: string) => Promise<AgentReply>;

/** Opens conversations for a SessionRotation. */
export function agentConversations(
  client: Client,
  taskQueue: string,
  runId: string,
  spec: AgentConversationSpec,
  send?: SendPrompt,
) {
  return async (seq: number): Promise<Session> => {
    const handle = await client.workflow.start(AgentGoalWorkflow, {
      taskQueue,
      workflowId: `bench-${spec.slug}-${runId}-${seq}`,
      // The production default budget (HISTORY_EVENT_BUDGET, 4000 events): conversations are rotated well
      // before it, and close() reports any continue-as-new.
      args: [{ goalId: spec.goalId, ...(spec.owner ? { owner: spec.owner } : {}) }],
    });
    await waitForGreeting(handle);
    return {
      turn: () =>
        send ? send(handle.workflowId, spec.prompt) : handle.executeUpdate(promptUpdate, { args: [spec.prompt] }),
      check: (result) => checkReply(spec, result as AgentReply),
      close: (turns) => closeConversation(handle, spec, turns),
      abort: () => abortWorkflow(handle),
    };
  };
}

function checkReply(spec: AgentConversationSpec, reply: AgentReply): void {
  if (reply.reply !== spec.reply || reply.pendingToolCall || reply.ended) {
    throw new Error(`${spec.name}: unexpected reply ${JSON.stringify(reply)}`);
  }
}

async function closeConversation(
  handle: WorkflowHandle<typeof AgentGoalWorkflow>,
  spec: AgentConversationSpec,
  turns: number,
): Promise<SessionEnd> {
  const usage = await handle.query(usageQuery);
  // The length while the conversation is still open: what a running conversation carries.
  const { historyLength } = await handle.describe();
  const history = await handle.fetchHistory();
  await handle.signal(endChatSignal);
  const transcript: Transcript = await handle.result();
  // After a continue-as-new the transcript is the last run's summary: nothing to count.
  if (usage.runs === 1) checkTranscript(spec, transcript, turns);
  return { historyLength, runs: usage.runs, history };
}

function checkTranscript(spec: AgentConversationSpec, transcript: Transcript, turns: number): void {
  const users = transcript.messages.filter((m) => m.kind === 'user').length;
  // Without a tool, any tool result is a path the scenario did not mean to take.
  const tools = transcript.messages.filter(
    (m) => m.kind === 'tool' && m.outcome.status === 'ok' && (!spec.tool || m.call.tool === spec.tool),
  ).length;
  // One user message per turn plus the greeting prompt.
  if (users !== turns + 1 || tools !== (spec.tool ? turns : 0)) {
    throw new Error(
      `${spec.name}: transcript has ${users} user messages and ${tools} ${spec.tool ?? 'tool'} results after ${turns} turns`,
    );
  }
}
