// A2A tasks as our conversations hold them: a task is one turn (the user's message and what the agent did with it),
// its context is the conversation. Nothing is stored beside the workflow: a task's state is read from the
// conversation's feed each time, so it is as durable as the conversation and any API process answers for it.
import { Role, TaskState, textOf, textPart, type Message, type Part, type Task } from '../../endpoints/a2a/sdk';
import type { ConversationFeed, PendingApproval } from '../../core/conversation-types';
import type { ToolQuestion } from '../../core/tool-questions';
import { STOPPED_REPLY } from '../../core/messages';

/** Not in a conversation id (`[\w.@:+-]`), so a task id splits back into its conversation and its prompt. */
const SEPARATOR = '~';

export function taskIdOf(conversationId: string, promptId: number): string {
  return `${conversationId}${SEPARATOR}${promptId}`;
}

export function parseTaskId(taskId: string): { conversationId: string; promptId: number } | null {
  const at = taskId.lastIndexOf(SEPARATOR);
  const promptId = Number(taskId.slice(at + 1));
  if (at <= 0 || !Number.isInteger(promptId) || promptId < 1) return null;
  return { conversationId: taskId.slice(0, at), promptId };
}

/** The states in which a task takes no more messages, and those in which it waits for one. */
export const TERMINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_FAILED,
]);
export const INTERRUPTED = new Set([TaskState.TASK_STATE_INPUT_REQUIRED]);

type Logged = ConversationFeed['messages'][number];

/** The turns the feed still holds (a turn summarised at continue-as-new is gone), oldest first. */
export function turnsOf(feed: ConversationFeed): { promptId: number; starter: boolean }[] {
  return feed.messages.flatMap(({ message: m }) =>
    m.kind === 'user' ? [{ promptId: m.promptId, starter: !!m.starter }] : [],
  );
}

/** The prompt a client's message (its ref) started, whether taken up yet or still queued. */
export function promptOfRef(feed: ConversationFeed, ref: string): number | undefined {
  const logged = feed.messages.find(({ message: m }) => m.kind === 'user' && m.ref === ref);
  if (logged?.message.kind === 'user') return logged.message.promptId;
  return feed.queued?.find((q) => q.ref === ref)?.promptId;
}

/**
 * The task of prompt `promptId` in conversation `contextId`, as the feed shows it; null when the conversation has no
 * such prompt. `historyLength`: at most that many of its messages (A2A: 0 is none, absent is all).
 */
export function taskOf(
  contextId: string,
  feed: ConversationFeed,
  promptId: number,
  historyLength?: number,
): Task | null {
  const id = taskIdOf(contextId, promptId);
  const start = feed.messages.findIndex(({ message: m }) => m.kind === 'user' && m.promptId === promptId);
  if (start < 0) {
    // Queued behind another turn; a conversation that ended first never takes it up.
    if (feed.queued?.some((q) => q.promptId === promptId))
      return task(
        id,
        contextId,
        feed.state === 'ended' ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_SUBMITTED,
      );
    // Older than the messages held: answered long ago, its words kept only in the conversation's summary.
    const oldest = turnsOf(feed)[0]?.promptId;
    if (oldest !== undefined && promptId < oldest) return task(id, contextId, TaskState.TASK_STATE_COMPLETED);
    return null;
  }
  const after = feed.messages.findIndex((l, i) => i > start && l.message.kind === 'user');
  const turn = feed.messages.slice(start, after < 0 ? undefined : after);
  const history = turn.flatMap((l) => messageOf(l, id, contextId));
  const last = [...history].reverse().find((m) => m.role === Role.ROLE_AGENT);
  const lastText = last ? textOf(last) : '';
  // The latest turn of an open conversation: an approval or a tool's question keeps it waiting for input (the
  // conversation then reads `waiting_for_user` for a question, and `awaiting_approval` for an approval).
  const latest = after < 0 && feed.state !== 'ended';
  const waits = latest && (!!feed.pendingApproval || !!feed.question);
  const done = !latest || feed.state === 'waiting_for_user';
  let state: TaskState;
  let status: Message | undefined;
  if (waits) {
    state = TaskState.TASK_STATE_INPUT_REQUIRED;
    status = asking(id, contextId, feed.pendingApproval, feed.question ?? null);
  } else if (!done) {
    state = TaskState.TASK_STATE_WORKING;
  } else if (lastText === STOPPED_REPLY || (!last && feed.state === 'ended')) {
    state = TaskState.TASK_STATE_CANCELED;
    status = last;
  } else {
    state = TaskState.TASK_STATE_COMPLETED;
    status = last;
  }
  const kept = historyLength === undefined ? history : historyLength <= 0 ? [] : history.slice(-historyLength);
  const artifacts =
    state === TaskState.TASK_STATE_COMPLETED && last
      ? [
          {
            artifactId: 'reply',
            name: 'reply',
            description: '',
            parts: last.parts,
            metadata: undefined,
            extensions: [],
          },
        ]
      : [];
  return { ...task(id, contextId, state, status), history: kept, artifacts };
}

function task(id: string, contextId: string, state: TaskState, message?: Message): Task {
  return {
    id,
    contextId,
    status: { state, message, timestamp: undefined },
    artifacts: [],
    history: [],
    metadata: undefined,
  };
}

/** What the agent waits for, in words and as data the client can answer with (a2a-input.ts reads the answer). */
function asking(
  id: string,
  contextId: string,
  approval: PendingApproval | null,
  question: ToolQuestion | null,
): Message {
  if (question) {
    const words = `${question.message}\nAnswer with a data part {"action": "accept", "content": {…}}, or say decline or cancel.`;
    return agentMessage(`${id}/question/${question.id}`, id, contextId, [
      textPart(words),
      dataPart({
        kind: 'question',
        questionId: question.id,
        tool: question.tool,
        question: question.kind,
        message: question.message,
        ...(question.schema ? { schema: question.schema } : {}),
        ...(question.url ? { url: question.url } : {}),
      }),
    ]);
  }
  const call = approval!.call;
  const words =
    `Approve ${approval!.tool} ${JSON.stringify(call.args)}?${approval!.description ? ` (${approval!.description})` : ''}` +
    '\nReply approve, or reject with a reason ("reject: …").';
  return agentMessage(`${id}/approval/${call.id}`, id, contextId, [
    textPart(words),
    dataPart({
      kind: 'approval',
      callId: call.id,
      tool: approval!.tool,
      args: call.args,
      ...(approval!.delegate ? { agent: approval!.delegate.agentName } : {}),
    }),
  ]);
}

function messageOf({ seq, message: m }: Logged, taskId: string, contextId: string): Message[] {
  const messageId = `${contextId}#${seq}`;
  if (m.kind === 'user') {
    // Files the user attached are named (they stay in our blob store: GET /api/files/{id}).
    const files = (m.attachments ?? []).map(({ id, name, type, size }) => ({ id, name, type, size }));
    const words = { ...textPart(m.text), metadata: files.length ? { files } : undefined };
    return [{ ...agentMessage(m.ref ?? messageId, taskId, contextId, [words]), role: Role.ROLE_USER }];
  }
  if (m.kind === 'agent' && m.text) return [agentMessage(messageId, taskId, contextId, [textPart(m.text)])];
  return [];
}

function agentMessage(messageId: string, taskId: string, contextId: string, parts: Part[]): Message {
  return {
    messageId,
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

/** Parts of a message that carry data (JSON objects). */
export function dataOf(message: Message): Record<string, unknown>[] {
  return message.parts.flatMap((p) =>
    p.content?.$case === 'data' && p.content.value && typeof p.content.value === 'object'
      ? [p.content.value as Record<string, unknown>]
      : [],
  );
}
