// One task of a remote A2A agent, run to its end from our side: sent once, then followed by its id. The id is recorded
// (the activity's heartbeat details) as soon as the remote agent has the task, so an attempt after a dead worker reads
// the same task again (GetTask) instead of sending the message twice. What the remote agent asks
// (TASK_STATE_INPUT_REQUIRED) is put to our user, and the answer goes back on the same task. A cancel on our side
// cancels the remote task.
import { createHash } from 'node:crypto';
import { Role, TaskState, textOf, textPart, type A2AClient, type Message, type Task } from './sdk';

/** Where a remote task is, as an attempt leaves it for the next. */
export interface RemoteTaskRecord {
  taskId: string;
  contextId: string;
  /** Questions of the remote agent answered so far. */
  answered: number;
  /** The question last answered (questionOf) and when: an attempt after a dead worker does not answer it again. */
  lastQuestion?: { question: string; at: number };
}

export interface RemoteTaskHooks {
  /** What an earlier attempt recorded; absent on the first. */
  resumed?: RemoteTaskRecord;
  /** The remote agent's context to go on with (the task is then a follow-up there). */
  contextId?: string;
  /** Records where the task is (before anything else happens to it). */
  record(at: RemoteTaskRecord): void;
  /** Puts the remote agent's question to our user: the answer's words, or null when the user declined. */
  ask(question: string): Promise<string | null>;
  /** Stable across attempts: the same message gets the same id (a remote that de-duplicates takes it once). */
  key: string;
  signal: AbortSignal;
  /** Whether `signal` fired because the user stopped the turn (not a worker shutting down, nor a timeout): only then
   * is the remote task cancelled, since the next attempt follows it. */
  userCancelled(): boolean;
  /** How long the task may take; then it is cancelled. */
  timeoutMs: number;
}

export interface RemoteTaskResult {
  state: 'completed' | 'failed' | 'canceled' | 'rejected' | 'timed_out';
  /** The agent's last words: its status message, else its artifacts' text. */
  text: string;
  /** Data parts of its artifacts. */
  data?: unknown[];
  taskId?: string;
  contextId?: string;
}

const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 1_000;
/** How long a question just answered may still be read as asked before it is taken as asked again. */
const STALE_QUESTION_MS = 30_000;
/** A cancel is best effort: a remote agent that does not answer it is not waited for longer. */
const CANCEL_TIMEOUT_MS = 5_000;

export async function runRemoteTask(
  client: A2AClient,
  words: string,
  hooks: RemoteTaskHooks,
): Promise<RemoteTaskResult> {
  const deadline = Date.now() + hooks.timeoutMs;
  const options = { signal: hooks.signal };
  const at = hooks.resumed;
  if (!at) {
    const first = { ...messageOf(words, messageId(hooks.key, 0)), contextId: hooks.contextId ?? '' };
    const sent = await client.sendMessage(request(first), options);
    // An agent may answer with a message and no task: that is the whole answer.
    if (!('status' in sent)) return { state: 'completed', text: textOf(sent) };
    const recorded = { taskId: sent.id, contextId: sent.contextId, answered: 0 };
    hooks.record(recorded);
    return followCancelling(client, sent, recorded, hooks, deadline);
  }
  return followCancelling(client, null, at, hooks, deadline);
}

/** Follows the task (read again first when resumed); the user stopping the turn, whatever it waited on then, cancels
 * the remote task too. */
async function followCancelling(
  client: A2AClient,
  sent: Task | null,
  at: RemoteTaskRecord,
  hooks: RemoteTaskHooks,
  deadline: number,
): Promise<RemoteTaskResult> {
  try {
    const task = sent ?? (await client.getTask({ tenant: '', id: at.taskId }, { signal: hooks.signal }));
    return await follow(client, task, at, hooks, deadline);
  } catch (err) {
    if (hooks.signal.aborted && hooks.userCancelled()) await cancel(client, at.taskId);
    throw err;
  }
}

/** Follows the task to its end, answering what it asks. */
async function follow(
  client: A2AClient,
  first: Task,
  recorded: RemoteTaskRecord,
  hooks: RemoteTaskHooks,
  deadline: number,
): Promise<RemoteTaskResult> {
  const options = { signal: hooks.signal };
  let task = first;
  let at = recorded;
  /** The question last answered, and when: the task may still read as asking it for a moment after the answer. */
  let answered = at.lastQuestion ?? null;
  let poll = FIRST_POLL_MS;
  for (;;) {
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    const done = resultOf(task, state);
    if (done) return done;
    const question = state === TaskState.TASK_STATE_INPUT_REQUIRED ? questionOf(task) : null;
    const stale = question !== null && answered?.question === question && Date.now() - answered.at < STALE_QUESTION_MS;
    if (question !== null && !stale) {
      const answer = await hooks.ask(textOf(task.status?.message) || 'The agent needs more input.');
      if (answer === null) {
        await cancel(client, task.id);
        const text = `The user did not answer the agent's question: ${textOf(task.status?.message)}`;
        return { state: 'canceled', text, taskId: task.id, contextId: task.contextId };
      }
      // Recorded before it is sent: an attempt after a dead worker never sends this answer's id again for another.
      answered = { question, at: Date.now() };
      at = { ...at, answered: at.answered + 1, lastQuestion: answered };
      hooks.record(at);
      const reply = {
        ...messageOf(answer, messageId(hooks.key, at.answered)),
        taskId: task.id,
        contextId: task.contextId,
      };
      let sent: Task | Message;
      try {
        sent = await client.sendMessage(request(reply), options);
      } catch (err) {
        if (hooks.signal.aborted) throw err;
        // The agent refused the answer (an A2A error): asking the same again would get the same answer.
        const text = `The agent did not take the answer: ${(err as Error).message}`;
        return { state: 'failed', text, taskId: task.id, contextId: task.contextId };
      }
      task = 'status' in sent ? sent : await client.getTask({ tenant: '', id: task.id }, options);
      poll = FIRST_POLL_MS;
      continue;
    }
    if (Date.now() > deadline) {
      await cancel(client, task.id);
      const text = `The agent did not finish within ${hooks.timeoutMs / 1000} s.`;
      return { state: 'timed_out', text, taskId: task.id, contextId: task.contextId };
    }
    await sleep(poll, hooks.signal);
    poll = Math.min(poll * 2, MAX_POLL_MS);
    task = await client.getTask({ tenant: '', id: task.id }, options);
  }
}

/** What identifies the question a task asks: its status message (id, or time and words). */
function questionOf(task: Task): string {
  const m = task.status?.message;
  return m?.messageId || `${task.status?.timestamp ?? ''}|${textOf(m)}`;
}

function resultOf(task: Task, state: TaskState): RemoteTaskResult | null {
  const ended: Partial<Record<TaskState, RemoteTaskResult['state']>> = {
    [TaskState.TASK_STATE_COMPLETED]: 'completed',
    [TaskState.TASK_STATE_FAILED]: 'failed',
    [TaskState.TASK_STATE_CANCELED]: 'canceled',
    [TaskState.TASK_STATE_REJECTED]: 'rejected',
    // Authentication we cannot give (the registry's headers are all we have): the call ends saying so.
    [TaskState.TASK_STATE_AUTH_REQUIRED]: 'failed',
  };
  const outcome = ended[state];
  if (!outcome) return null;
  const artifacts = task.artifacts.flatMap((a) => a.parts);
  const data = artifacts.flatMap((p) => (p.content?.$case === 'data' ? [p.content.value as unknown] : []));
  const artifactText = artifacts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join('\n');
  return {
    state: outcome,
    text: textOf(task.status?.message) || artifactText || `The task ended ${outcome}.`,
    ...(data.length ? { data } : {}),
    taskId: task.id,
    contextId: task.contextId,
  };
}

async function cancel(client: A2AClient, id: string): Promise<void> {
  // Best effort: a task that already ended, or an agent that cannot cancel, is left as it is.
  await client
    .cancelTask({ tenant: '', id, metadata: undefined }, { signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) })
    .catch(() => undefined);
}

function request(message: Message) {
  return {
    tenant: '',
    message,
    configuration: {
      acceptedOutputModes: ['text/plain', 'application/json'],
      taskPushNotificationConfig: undefined,
      returnImmediately: true,
    },
    metadata: undefined,
  };
}

function messageOf(words: string, id: string): Message {
  return {
    messageId: id,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [textPart(words)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** A UUID-shaped id derived from the call and the round: the same on every attempt. */
function messageId(key: string, round: number): string {
  const h = createHash('sha256').update(`${key}#${round}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
