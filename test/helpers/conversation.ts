// Client-side helpers for driving a conversation in tests, the way the CLI does.
import {
  defaultPayloadConverter,
  type Client,
  type WorkflowHandle,
  type WorkflowStartOptions,
} from '@temporalio/client';
import { AgentGoalWorkflow } from '../../workflows';
import { confirmUpdate, historyQuery, promptUpdate, statusQuery, type PromptInput } from '../../core/messages';
import type { ChatMessage } from '../../core/types';
import type { PlanRequest } from '../../core/activity-types';
import type { AgentGoalInput, AgentReply, ConfirmDecision } from '../../core/conversation-types';

let seq = 0;

/**
 * The workflow task timeout of conversations in tests that kill workers: a task lost with its worker goes to the next
 * worker after 2 s, not Temporal's default 10 s. It is the conversation's start option (delegates inherit it), so
 * the path is the one a user's conversation takes, only shorter.
 */
export const FAULT_TASK_TIMEOUT = '2s';

/** A conversation of a test that kills its workers: its workflow task timeout is FAULT_TASK_TIMEOUT. */
export const startConversationForFaults = (client: Client, taskQueue: string, input: AgentGoalInput) =>
  startConversation(client, taskQueue, input, undefined, { workflowTaskTimeout: FAULT_TASK_TIMEOUT });

export async function startConversation(
  client: Client,
  taskQueue: string,
  input: AgentGoalInput,
  id?: string,
  { workflowTaskTimeout }: { workflowTaskTimeout?: WorkflowStartOptions['workflowTaskTimeout'] } = {},
) {
  const handle = await client.workflow.start(AgentGoalWorkflow, {
    taskQueue,
    workflowId: id ?? `test-convo-${process.pid}-${Date.now()}-${++seq}`,
    args: [input],
    ...(workflowTaskTimeout ? { workflowTaskTimeout } : {}),
  });
  const greeting = await waitForUser(handle);
  return { handle, greeting };
}

/** Polls the status query until the agent waits for the user (what `agent start` does for the greeting). */
export async function waitForUser(handle: WorkflowHandle, timeoutMs = 30_000): Promise<AgentReply | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await handle.query(statusQuery);
    if (status.state !== 'working') return status.lastReply;
    if (Date.now() > deadline) throw new Error('the agent did not finish its turn in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const say = (handle: WorkflowHandle, text: PromptInput) => handle.executeUpdate(promptUpdate, { args: [text] });
export const decide = (handle: WorkflowHandle, decision: ConfirmDecision) =>
  handle.executeUpdate(confirmUpdate, { args: [decision] });
export const history = (handle: WorkflowHandle) => handle.query(historyQuery);

export function toolOutcomes(messages: ChatMessage[], tool?: string) {
  return messages.flatMap((m) => (m.kind === 'tool' && (!tool || m.call.tool === tool) ? [m] : []));
}

/** The reason a rejected update gives (the validator's message), as clients show it. */
export async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as { cause?: Error }).cause?.message ?? (err as Error).message;
  }
  throw new Error('expected the update to be rejected');
}

export { waitUntil } from '../../testkit/wait-until';

/** The result of the n-th successful call of a tool; throws with the outcome when it did not succeed. */
export function resultOf<T>(messages: ChatMessage[], tool: string, n = 0): T {
  const outcome = toolOutcomes(messages, tool)[n]?.outcome;
  if (outcome?.status !== 'ok') throw new Error(`${tool} #${n} did not succeed: ${JSON.stringify(outcome)}`);
  return outcome.result as T;
}

/** The attempt number of each start of `activityType`'s activities, in order: [2] proves a kill forced one retry. */
export async function startedAttempts(handle: WorkflowHandle, activityType: string): Promise<number[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  const scheduled = new Set(
    events
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityType)
      .map((e) => String(e.eventId)),
  );
  return events
    .filter(
      (e) =>
        e.activityTaskStartedEventAttributes &&
        scheduled.has(String(e.activityTaskStartedEventAttributes.scheduledEventId)),
    )
    .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 0);
}

/** The requests of the conversation's plan calls (planTurn, vetAndPlan), in order, as its history holds them. */
export async function planRequests(handle: WorkflowHandle): Promise<PlanRequest[]> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events
    .map((e) => e.activityTaskScheduledEventAttributes)
    .filter((a) => a && ['planTurn', 'vetAndPlan'].includes(a.activityType?.name ?? ''))
    .map((a) => defaultPayloadConverter.fromPayload<PlanRequest>(a!.input!.payloads![0]!));
}
