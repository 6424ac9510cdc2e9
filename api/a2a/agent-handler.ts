// One of our agents as an A2A server: the SDK's transports (JSON-RPC, HTTP+JSON) call these methods, each through
// the AgentClient the REST routes use, so an A2A task is a turn of a durable conversation like any other (the CLI,
// the web chat and the run view see it, owned by the key's owner). A message id is the update id: a message sent
// twice starts one turn.
import { createHash } from 'node:crypto';
import type { AgentClient } from '../../client/agent-client';
import type { AgentReply } from '../../core/conversation-types';
import { UserError } from '../../core/user-error';
import {
  a2aErrors,
  type A2ARequestHandler,
  type AgentCard,
  type CancelTaskRequest,
  type GetTaskRequest,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type SendMessageRequest,
  type ServerCallContext,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  TaskState,
} from '../../endpoints/a2a/sdk';
import type { Caller } from '../auth';
import { visibleFeed } from '../conversation-access';
import { answerOf } from './input-answers';
import { promptOf } from './message-parts';
import { LOCAL_OWNER } from '../../core/blobs';
import { FileRefusal } from '../../readers';
import { followTask, type TaskEvents } from './task-stream';
import { INTERRUPTED, parseTaskId, promptOfRef, taskOf, TERMINAL, turnsOf } from './turn-tasks';
import { listTasks } from './task-list';

export interface AgentHandlerDeps {
  agents: AgentClient;
  goalId: string;
  card: () => Promise<AgentCard>;
  callerOf: (context: ServerCallContext) => Caller;
  /** Aborted when the request's client goes away. */
  goneOf: (context: ServerCallContext) => AbortSignal | undefined;
  events: TaskEvents;
  /** Told each time a conversation is sent something, so live views look at once. */
  touched: (id: string) => void;
}

const { TaskNotFoundError, TaskNotCancelableError, UnsupportedOperationError, RequestMalformedError } = a2aErrors;

export function agentHandler(deps: AgentHandlerDeps): A2ARequestHandler {
  const { agents, goalId } = deps;

  /** The conversation behind a task or context, if the caller may see it; else the task is unknown to them. */
  async function feedFor(context: ServerCallContext, conversationId: string, what: string) {
    try {
      return await visibleFeed(agents, deps.callerOf(context), conversationId, 0);
    } catch (err) {
      if (err instanceof UserError && err.kind === 'not_found') throw new TaskNotFoundError(`No ${what}.`);
      throw err;
    }
  }

  async function taskById(context: ServerCallContext, taskId: string, historyLength?: number): Promise<Task> {
    const ref = parseTaskId(taskId);
    if (!ref) throw new TaskNotFoundError(`No task ${taskId}.`);
    const feed = await feedFor(context, ref.conversationId, `task ${taskId}`);
    const task = taskOf(ref.conversationId, feed, ref.promptId, historyLength);
    if (!task) throw new TaskNotFoundError(`No task ${taskId}.`);
    return task;
  }

  /**
   * Delivers the client's message: an answer to the task waiting for input, or a new turn (in its context's
   * conversation, or a new conversation with this agent). `wait`: until the turn ends or needs the user.
   * Answers the conversation and the prompt whose turn it is.
   */
  async function deliver(
    context: ServerCallContext,
    message: Message,
    wait: boolean,
  ): Promise<{ conversationId: string; promptId: number }> {
    if (!message.messageId) throw new RequestMalformedError('message.messageId is required.');
    const updateId = `a2a-${message.messageId}`;
    if (message.taskId) {
      const ref = parseTaskId(message.taskId);
      if (!ref) throw new TaskNotFoundError(`No task ${message.taskId}.`);
      const feed = await feedFor(context, ref.conversationId, `task ${message.taskId}`);
      const task = taskOf(ref.conversationId, feed, ref.promptId);
      if (!task) throw new TaskNotFoundError(`No task ${message.taskId}.`);
      const state = task.status!.state;
      if (!INTERRUPTED.has(state)) {
        throw new UnsupportedOperationError(
          TERMINAL.has(state)
            ? `Task ${message.taskId} is done: send a new message with contextId ${ref.conversationId} to continue.`
            : `Task ${message.taskId} is still working: wait for it (GetTask, SubscribeToTask) or cancel it.`,
        );
      }
      const given = answerOf(message, { approval: feed.pendingApproval, question: feed.question ?? null });
      const id = ref.conversationId;
      const sent: Promise<AgentReply | void> =
        'confirm' in given
          ? wait
            ? agents.confirm(id, given.confirm, updateId)
            : agents.confirmLater(id, given.confirm, updateId)
          : agents.answer(id, given.answer, updateId);
      deps.touched(id);
      await sent;
      return ref;
    }
    const caller = deps.callerOf(context);
    // A first message starts a conversation whose id comes from it: sent again, it finds that conversation.
    const id = message.contextId || conversationFor(caller, goalId, message.messageId);
    let feed = await feedFor(context, id, `context ${id}`).catch((err: unknown) => {
      if (message.contextId || !(err instanceof TaskNotFoundError)) throw err;
      return null;
    });
    if (!feed) {
      await agents.start(goalId, id, caller.owner ?? undefined).catch((err: unknown) => {
        // Started by this message's first send, a moment ago.
        if (!(err instanceof UserError && err.kind === 'refused')) throw err;
      });
      feed = await feedFor(context, id, `context ${id}`);
    }
    // Sent before (a client's retry, even after the conversation continued as new): the turn it started.
    const before = promptOfRef(feed, message.messageId);
    if (before !== undefined) {
      if (wait) await agents.waitForUser(id);
      return { conversationId: id, promptId: before };
    }
    const owner = feed.owner ?? LOCAL_OWNER;
    const prompt = {
      ...(await filesRefused(() => promptOf(agents, message, { conversationId: id, owner }))),
      ref: message.messageId,
    };
    const sent = wait ? agents.say(id, prompt, updateId) : agents.sayLater(id, prompt, updateId);
    deps.touched(id);
    await sent;
    // The turn this message started (a conversation that ended meanwhile answers with its last reply, not this one's).
    const promptId = promptOfRef(await agents.feed(id, 0), message.messageId);
    if (promptId === undefined)
      throw new UnsupportedOperationError(`Conversation ${id} ended before it took message ${message.messageId}.`);
    return { conversationId: id, promptId };
  }

  async function taskAfter(at: { conversationId: string; promptId: number }, historyLength?: number) {
    const feed = await agents.feed(at.conversationId, 0);
    return taskOf(at.conversationId, feed, at.promptId, historyLength)!;
  }

  return {
    getAgentCard: deps.card,
    async getAuthenticatedExtendedAgentCard() {
      throw new a2aErrors.ExtendedAgentCardNotConfiguredError('This agent has no extended card.');
    },

    async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Task> {
      const message = requireMessage(params);
      const wait = !params.configuration?.returnImmediately;
      return inA2aTerms(async () => {
        const at = await deliver(context, message, wait);
        return taskAfter(at, params.configuration?.historyLength);
      });
    },

    async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse> {
      const at = await inA2aTerms(() => deliver(context, requireMessage(params), false));
      yield* followTask(deps.events, at.conversationId, at.promptId, deps.goneOf(context));
    },

    async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
      return inA2aTerms(() => taskById(context, params.id, params.historyLength));
    },

    async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
      const task = await taskById(context, params.id);
      const state = task.status!.state;
      if (TERMINAL.has(state)) throw new TaskNotCancelableError(`Task ${params.id} is already done.`);
      const { conversationId } = parseTaskId(params.id)!;
      const latest = turnsOf(await agents.feed(conversationId, 0)).at(-1)?.promptId;
      if (state === TaskState.TASK_STATE_SUBMITTED || latest !== parseTaskId(params.id)!.promptId)
        throw new TaskNotCancelableError(`Task ${params.id} has not started: only the running turn can be cancelled.`);
      await agents.cancel(conversationId).catch((err: unknown) => {
        if (err instanceof UserError) throw new TaskNotCancelableError(err.message);
        throw err;
      });
      deps.touched(conversationId);
      return taskById(context, params.id);
    },

    async *resubscribe(params: SubscribeToTaskRequest, context: ServerCallContext): AsyncGenerator<StreamResponse> {
      const task = await taskById(context, params.id);
      if (TERMINAL.has(task.status!.state))
        throw new UnsupportedOperationError(`Task ${params.id} is done: GetTask reads it.`);
      const { conversationId, promptId } = parseTaskId(params.id)!;
      yield* followTask(deps.events, conversationId, promptId, deps.goneOf(context));
    },

    async listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
      const caller = deps.callerOf(context);
      if (params.contextId) await feedFor(context, params.contextId, `context ${params.contextId}`);
      return inA2aTerms(() =>
        listTasks(agents, { goalId, owner: caller.admin ? undefined : (caller.owner ?? undefined) }, params),
      );
    },

    async createTaskPushNotificationConfig() {
      throw new a2aErrors.PushNotificationNotSupportedError('Push notifications are not offered: use SubscribeToTask.');
    },
    async getTaskPushNotificationConfig() {
      throw new a2aErrors.PushNotificationNotSupportedError('Push notifications are not offered.');
    },
    async listTaskPushNotificationConfigs() {
      throw new a2aErrors.PushNotificationNotSupportedError('Push notifications are not offered.');
    },
    async deleteTaskPushNotificationConfig() {
      throw new a2aErrors.PushNotificationNotSupportedError('Push notifications are not offered.');
    },
  };
}

/** A file the blob store or its readers refuse (too big, not read) is the client's mistake, said in A2A's terms. */
async function filesRefused<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof FileRefusal) throw new a2aErrors.ContentTypeNotSupportedError(err.message);
    throw err;
  }
}

/** Our refusals (UserError) as A2A's errors: a client's mistake is never an internal error. */
async function inA2aTerms<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    if (err.kind === 'not_found') throw new TaskNotFoundError(err.message);
    if (err.kind === 'invalid') throw new RequestMalformedError(err.message);
    if (err.kind === 'refused') throw new UnsupportedOperationError(err.message);
    throw err;
  }
}

/** A conversation id for a first message: the same for the same message of the same caller to the same agent. */
function conversationFor(caller: Caller, goalId: string, messageId: string): string {
  const key = createHash('sha256')
    .update(JSON.stringify([caller.owner, goalId, messageId]))
    .digest('hex');
  return `a2a-${key.slice(0, 20)}`;
}

function requireMessage(params: SendMessageRequest): Message {
  const message = params.message;
  if (!message?.parts?.length) throw new RequestMalformedError('message with at least one part is required.');
  return message;
}
