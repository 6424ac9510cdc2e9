// The conversation API clients use: start, say, confirm, history, end. Shared by the CLI, the chat and tests.
import { randomBytes } from 'node:crypto';
import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateStage,
  type WorkflowHandle,
  type WorkflowUpdateHandle,
  type WorkflowClientInterceptor,
} from '@temporalio/client';
import { AgentGoalWorkflow } from '../workflows';

import { openingState, type PromptRef } from '../core/mcp-features';
import {
  cancelTurnUpdate,
  changeGoalSignal,
  answerQuestionUpdate,
  confirmUpdate,
  currentGoalQuery,
  delegationsQuery,
  endChatSignal,
  feedQuery,
  historyQuery,
  promptUpdate,
  statusQuery,
  usageQuery,
  type PromptInput,
} from '../core/messages';
import type { BlobRef } from '../core/blobs';
import { LOCAL_OWNER, type LimitedBlobStore } from '../blobs';
import { connectTemporal, openFileStore } from './client-connection';
import { storeAttachment } from './attachments';
import { UNATTENDED_ID } from '../core/run-starter';
import type { ChatMessage } from '../core/types';
import type { AnsweredQuestion } from '../core/tool-questions';
import type {
  AgentReply,
  ConfirmDecision,
  ConversationFeed,
  ConversationStatus,
  Delegation,
  DelegationNode,
} from '../core/conversation-types';
import { checkFilterValue, listConversations, type ConversationFilter } from './conversation-list';
import { type ConversationSummary } from '../core/conversation-types';
import { untilReachable, type ServerWait } from './server-outage';
import { inConversation, sendUpdate } from './conversation-updates';
import { UserError } from '../core/user-error';
import { delegationTree, historyTree, type HistoryTree } from './conversation-tree';
import { WorkerQuestions } from './worker-questions';
import { readRun, type TemporalUi } from '../views/run-view/run-reader';
import { isModelCall } from '../views/run-view/steps';
import type { RunView } from '../core/run-view';

export type { HistoryTree } from './conversation-tree';

/** A server restart takes seconds; two minutes covers a slow one without leaving the user waiting on a dead one. */
const DEFAULT_SERVER_WAIT_MS = 120_000;

/**
 * Updates are sent until accepted (durable on the server), then their result is waited for: two steps, so a
 * restart after acceptance re-attaches to the update in the run that accepted it instead of sending it anew.
 */
const ACCEPTED = WorkflowUpdateStage.ACCEPTED;

/** How a client waits out a server restart, and where it keeps the files it attaches (the worker's blob store). */
export type AgentClientOptions = Partial<ServerWait> & { files?: LimitedBlobStore };

export class AgentClient extends WorkerQuestions {
  private readonly serverWait: ServerWait;
  private readonly fileStore?: LimitedBlobStore;

  constructor(client: Client, taskQueue: string, options: AgentClientOptions = {}) {
    super(client, taskQueue);
    const { files, ...serverWait } = options;
    this.serverWait = { maxWaitMs: DEFAULT_SERVER_WAIT_MS, ...serverWait };
    this.fileStore = files;
  }

  /** The blob store files are attached through: the worker's (the same BLOB_STORE settings). */
  get files(): LimitedBlobStore {
    if (!this.fileStore)
      throw new UserError(
        'No file store here: AgentClient takes one as its files option (AgentClient.connect opens the one BLOB_STORE names).',
        'unavailable',
      );
    return this.fileStore;
  }

  /**
   * Connects to Temporal with the settings in `env` (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY,
   * TEMPORAL_TLS_*, TEMPORAL_PROFILE); conversations start on `taskQueue`, which an agent worker must serve. Files are
   * kept in the store `env` names (BLOB_STORE, BLOB_DIR or DATA_DIR, S3_*), the worker's, unless `files` is given.
   */
  static async connect(
    taskQueue: string,
    env: NodeJS.ProcessEnv = process.env,
    options: AgentClientOptions & { interceptors?: WorkflowClientInterceptor[] } = {},
  ): Promise<AgentClient> {
    const { interceptors, files, ...serverWait } = options;
    const store = files ?? openFileStore(env);
    return new AgentClient(await connectTemporal(env, interceptors), taskQueue, { ...serverWait, files: store });
  }

  /** Closes the connection to Temporal. */
  async close(): Promise<void> {
    await this.client.connection.close();
  }

  /**
   * Starts a conversation and waits for the agent's greeting. With `prompt`, an MCP server's prompt opens it instead
   * of the goal's starter: its messages come first, and the agent answers its last user message.
   */
  async start(
    goalId: string,
    conversationId = newConversationId(),
    owner?: string,
    { prompt }: { prompt?: PromptRef } = {},
  ): Promise<{ id: string; greeting: AgentReply | null }> {
    // An owner `agent list --owner` could not find is refused here, not discovered later.
    if (owner) checkFilterValue('owner', owner);
    // Those ids belong to schedules' and triggers' runs: taking one would stop the real run from starting.
    if (UNATTENDED_ID.test(conversationId))
      throw new UserError(`Conversation ids beginning sched- or trig- are kept for scheduled and triggered runs.`);
    await this.desk.requireWorker();
    const carried = prompt ? openingState(await this.getPrompt({ owner, ...prompt })) : undefined;
    try {
      await this.client.workflow.start(AgentGoalWorkflow, {
        taskQueue: this.taskQueue,
        workflowId: conversationId,
        args: [{ goalId, ...(owner ? { owner } : {}), ...(carried ? { carried } : {}) }],
      });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError)
        throw new UserError(`A conversation with id ${conversationId} is already running.`, 'refused');
      throw err;
    }
    return { id: conversationId, greeting: await this.waitForUser(conversationId) };
  }

  /**
   * Stores a file for the conversation (held by it, for its owner) and gives its reference, to send with `say`:
   * `say(id, { text, attachments: [ref] })`. A path is read from disk, named by its base name unless `name` is given.
   */
  async attach(id: string, file: string | Uint8Array, name?: string): Promise<BlobRef> {
    const store = this.files;
    const owner = (await this.feed(id, Number.MAX_SAFE_INTEGER)).owner ?? LOCAL_OWNER;
    return storeAttachment(store, { conversationId: id, owner }, file, name);
  }

  /**
   * Sends a prompt (its words, or `{ text, attachments }` with files stored by `attach`); resolves once the agent next
   * needs the user (its answer, or a tool call awaiting approval).
   */
  async say(id: string, text: PromptInput, updateId?: string): Promise<AgentReply> {
    return this.update(
      id,
      (updateId) => this.handle(id).startUpdate(promptUpdate, { args: [text], updateId, waitForStage: ACCEPTED }),
      updateId,
    );
  }

  /** Sends a prompt and returns once the conversation has accepted it (refusals throw); the reply comes later. */
  async sayLater(id: string, text: PromptInput, updateId?: string): Promise<void> {
    return this.sendUpdate(
      id,
      (updateId) => this.handle(id).startUpdate(promptUpdate, { args: [text], updateId, waitForStage: ACCEPTED }),
      updateId,
    ).accepted;
  }

  /** Approves (possibly with edited args) or rejects the pending tool call; resolves once the agent next needs the user. */
  async confirm(id: string, decision: ConfirmDecision, updateId?: string): Promise<AgentReply> {
    return this.update(
      id,
      (updateId) => this.handle(id).startUpdate(confirmUpdate, { args: [decision], updateId, waitForStage: ACCEPTED }),
      updateId,
    );
  }

  /** Confirm that returns once the conversation has accepted the decision (refusals throw); the reply comes later. */
  async confirmLater(id: string, decision: ConfirmDecision, updateId?: string): Promise<void> {
    return this.sendUpdate(
      id,
      (updateId) => this.handle(id).startUpdate(confirmUpdate, { args: [decision], updateId, waitForStage: ACCEPTED }),
      updateId,
    ).accepted;
  }

  /** Answers the question a running tool asks (`reply.question`: an MCP server's form, URL or sampling request):
   * accept (with the form's content), decline or cancel; returns the agent's reply once it next needs the user. */
  async answer(id: string, answered: AnsweredQuestion, updateId?: string): Promise<AgentReply> {
    return this.update(
      id,
      (updateId) =>
        this.handle(id).startUpdate(answerQuestionUpdate, { args: [answered], updateId, waitForStage: ACCEPTED }),
      updateId,
    );
  }

  /** Answer that returns once the conversation has accepted the answer (refusals throw); the reply comes later. */
  async answerLater(id: string, answered: AnsweredQuestion, updateId?: string): Promise<void> {
    return this.sendUpdate(
      id,
      (updateId) =>
        this.handle(id).startUpdate(answerQuestionUpdate, { args: [answered], updateId, waitForStage: ACCEPTED }),
      updateId,
    ).accepted;
  }

  /** Stops the running turn (the model call or tool in flight is cancelled); the reply says it stopped. */
  async cancel(id: string): Promise<AgentReply> {
    return this.update(id, (updateId) =>
      this.handle(id).startUpdate(cancelTurnUpdate, { updateId, waitForStage: ACCEPTED }),
    );
  }

  /** The conversation so far: user prompts, agent messages with their tool calls, tool outcomes, notes. */
  async history(id: string): Promise<ChatMessage[]> {
    return this.call(id, () => this.handle(id).query(historyQuery));
  }

  /** The conversation and its delegates (AskAgent), each with theirs, down the tree. */
  tree(id: string): Promise<DelegationNode> {
    return delegationTree(this, id);
  }

  /** The run view: turns, model and tool calls, waits, delegates with theirs, totals, read from the histories. */
  run(id: string, temporalUi?: TemporalUi): Promise<RunView> {
    return this.call(id, () => readRun(this.client, id, temporalUi));
  }

  /** The history with each delegate's folded under its AskAgent call (by call id), down the tree. */
  historyTree(id: string): Promise<HistoryTree> {
    return historyTree(this, id);
  }

  /** A conversation's delegations; none for one whose worker predates delegation (it has no such query). */
  async delegations(id: string): Promise<Delegation[]> {
    try {
      return await this.call(id, () => this.handle(id).query(delegationsQuery));
    } catch (err) {
      if (err instanceof UserError) throw err;
      return [];
    }
  }

  /** Messages from sequence number `since` on, with state, pending approval, usage and owner, in one query. */
  async feed(id: string, since = 0): Promise<ConversationFeed> {
    return this.call(id, () => this.handle(id).query(feedQuery, since));
  }

  /** Switches the conversation to another agent (multi-goal mode); the agent picks the request up. */
  async changeGoal(id: string, goalId: string): Promise<void> {
    await this.requireGoal(goalId);
    await this.call(id, () => this.handle(id).signal(changeGoalSignal, goalId));
  }

  /** Whether the agent is working, waiting for the user or for an approval, or ended; and its last reply. */
  async status(id: string): Promise<ConversationStatus> {
    return this.call(id, () => this.handle(id).query(statusQuery));
  }

  /**
   * A model call of the turn in progress that has failed and is being retried, from the server's view of the
   * workflow: the workflow itself only hears of a call's final outcome, so clients ask here to tell the user early.
   */
  async retrying(id: string): Promise<{ attempt: number; lastFailure: string } | null> {
    const { raw } = await this.call(id, () => this.handle(id).describe());
    const call = raw.pendingActivities?.find((a) => isModelCall(a.activityType?.name) && (a.attempt ?? 0) > 1);
    if (!call) return null;
    return { attempt: call.attempt ?? 0, lastFailure: call.lastFailure?.message ?? 'no answer' };
  }

  async details(id: string) {
    return this.call(id, async () => {
      const handle = this.handle(id);
      const [goal, usage] = await Promise.all([handle.query(currentGoalQuery), handle.query(usageQuery)]);
      return { goal, usage };
    });
  }

  /** Ends the conversation and waits until it has (its workflow returns the transcript). */
  async end(id: string): Promise<void> {
    await this.call(id, async () => {
      const handle = this.handle(id);
      const { status } = await handle.describe();
      if (status.name !== 'RUNNING')
        throw new UserError(`Conversation ${id} has already ended (${status.name.toLowerCase()}).`, 'refused');
      await handle.signal(endChatSignal);
      // Report "ended" only once it has: the workflow returns its transcript.
      await handle.result();
    });
  }

  /** Conversations, newest first, by goal, state and owner (search attributes the workflows keep). */
  async list(filter: ConversationFilter = {}): Promise<ConversationSummary[]> {
    return listConversations(this.client, filter);
  }

  async isRunning(id: string): Promise<boolean> {
    try {
      return (await this.handle(id).describe()).status.name === 'RUNNING';
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  }

  /** Waits until the agent finished its turn (the greeting after start, or work after a signal). */
  async waitForUser(id: string, timeoutMs = 120_000): Promise<AgentReply | null> {
    const deadline = Date.now() + timeoutMs;
    for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
      const status = await untilReachable(() => this.status(id), this.serverWait);
      if (status.state !== 'working') return status.lastReply;
      if (Date.now() > deadline)
        throw new UserError(
          `The agent of ${id} is still working after ${timeoutMs / 1000}s; try again later.`,
          'unavailable',
        );
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  private handle(id: string): WorkflowHandle<typeof AgentGoalWorkflow> {
    return this.client.workflow.getHandle(id);
  }

  private call<T>(id: string, run: () => Promise<T>): Promise<T> {
    return inConversation(id, run);
  }

  private update(
    id: string,
    send: (updateId: string) => Promise<WorkflowUpdateHandle<AgentReply>>,
    updateId?: string,
  ): Promise<AgentReply> {
    return sendUpdate(id, send, this.serverWait, updateId).reply;
  }

  private sendUpdate(
    id: string,
    send: (updateId: string) => Promise<WorkflowUpdateHandle<AgentReply>>,
    updateId?: string,
  ) {
    return sendUpdate(id, send, this.serverWait, updateId);
  }
}

export function newConversationId(): string {
  return `agent-${randomBytes(4).toString('hex')}`;
}
