// Finding conversations: Temporal's visibility list filtered by the search attributes conversations keep
// (workflows/search-attributes.ts), newest first. Used by `agent list` and by `npm start` to resume.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { ConversationState, ConversationSummary } from '../core/conversation-types';
import { AGENT_GOAL, AGENT_OWNER, AGENT_STATE } from '../workflows/search-attributes';
import { UserError } from '../core/user-error';

export interface ConversationFilter {
  goal?: string;
  /** Only conversations served on this task queue (npm start resumes its own). */
  taskQueue?: string;
  /** A state, or `running`: any state but ended. */
  state?: ConversationState | 'running';
  owner?: string;
  /** At most this many, newest first (default 20). */
  limit?: number;
}

const STATES: (ConversationState | 'running')[] = [
  'waiting_for_user',
  'working',
  'awaiting_approval',
  'running',
  'ended',
];
const SAFE_VALUE = /^[\w.@:+-]{1,200}$/;

/** Refuses a value a filter could not match: goal ids, owners and queues are plain words. */
export function checkFilterValue(name: string, v: string): string {
  if (!SAFE_VALUE.test(v)) throw new UserError(`--${name} may hold letters, digits and . @ : + - _ only, got "${v}"`);
  return v;
}

/** The visibility query for a filter; values are checked, never spliced in raw. A conversation that continued as
 * new is one conversation: its earlier runs are left out. Delegates (AskAgent's child conversations) are part of their
 * parent's: `agent tree` shows them. */
export function listQuery(filter: ConversationFilter): string {
  const clauses = [
    `WorkflowType = 'AgentGoalWorkflow'`,
    `ExecutionStatus != 'ContinuedAsNew'`,
    'ParentWorkflowId IS NULL',
  ];
  const value = (name: string, v: string) => `'${checkFilterValue(name, v)}'`;
  if (filter.goal) clauses.push(`${AGENT_GOAL.name} = ${value('goal', filter.goal)}`);
  if (filter.taskQueue) clauses.push(`TaskQueue = ${value('task-queue', filter.taskQueue)}`);
  if (filter.owner) clauses.push(`${AGENT_OWNER.name} = ${value('owner', filter.owner)}`);
  if (filter.state) {
    if (!STATES.includes(filter.state))
      throw new UserError(`--state must be one of ${STATES.join(', ')}, got "${filter.state}"`);
    // A conversation that ended without saying so (terminated, timed out) is ended too.
    clauses.push(
      filter.state === 'ended'
        ? `ExecutionStatus != 'Running'`
        : filter.state === 'running'
          ? `ExecutionStatus = 'Running'`
          : `ExecutionStatus = 'Running' AND ${AGENT_STATE.name} = '${filter.state}'`,
    );
  }
  return clauses.join(' AND ');
}

export async function listConversations(
  client: Client,
  filter: ConversationFilter = {},
): Promise<ConversationSummary[]> {
  const found: ConversationSummary[] = [];
  try {
    for await (const info of client.workflow.list({ query: listQuery(filter) })) {
      found.push(summaryOf(info));
      if (found.length >= (filter.limit ?? 20)) break;
    }
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(
      `The server cannot list conversations by goal, state or owner (${(err as Error).message}). ` +
        "Its search attributes are registered by the worker at start (or by npm start's dev server); start a worker once.",
    );
  }
  return found;
}

function summaryOf(info: WorkflowExecutionInfo): ConversationSummary {
  const attrs = info.typedSearchAttributes;
  const running = info.status.name === 'RUNNING';
  const state = running ? ((attrs.get(AGENT_STATE) as ConversationState | undefined) ?? 'working') : 'ended';
  const title = info.memo?.title;
  return {
    id: info.workflowId,
    goal: attrs.get(AGENT_GOAL) ?? null,
    state,
    owner: attrs.get(AGENT_OWNER) ?? null,
    title: typeof title === 'string' ? title : null,
    startedAt: info.startTime.toISOString(),
  };
}
