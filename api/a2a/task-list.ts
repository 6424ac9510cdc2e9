// ListTasks: the caller's turns with one agent (or in one context), newest conversation first and, in each, newest
// turn first; a page token is the id of the last task of the page before, so a page boundary survives turns added
// meanwhile to other conversations.
import type { AgentClient } from '../../client/agent-client';
import { a2aErrors, type ListTasksRequest, type ListTasksResponse, type Task } from '../../endpoints/a2a/sdk';
import { taskOf, turnsOf } from './turn-tasks';

/** The conversations one listing reads (each is a query to its workflow): the newest this many. */
const MAX_CONVERSATIONS = 100;
const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;

export async function listTasks(
  agents: AgentClient,
  scope: { goalId: string; owner?: string },
  params: ListTasksRequest,
): Promise<ListTasksResponse> {
  if (params.statusTimestampAfter)
    throw new a2aErrors.UnsupportedOperationError(
      'statusTimestampAfter is not supported: our tasks carry no timestamps.',
    );
  const pageSize = Math.min(Math.max(params.pageSize ?? DEFAULT_PAGE, 1), MAX_PAGE);
  const ids = params.contextId
    ? [params.contextId]
    : (
        await agents.list({
          goal: scope.goalId,
          owner: scope.owner,
          limit: MAX_CONVERSATIONS,
          taskQueue: agents.taskQueue,
        })
      ).map((c) => c.id);
  const feeds = await Promise.all(ids.map((id) => agents.feed(id, 0).catch(() => null)));
  const all: Task[] = [];
  ids.forEach((id, i) => {
    const feed = feeds[i];
    if (!feed) return;
    // A goal's starter prompt is the agent opening the conversation, not a task anyone gave it.
    for (const turn of turnsOf(feed).reverse()) {
      if (turn.starter) continue;
      const task = taskOf(id, feed, turn.promptId, params.historyLength ?? 0)!;
      if (params.status && task.status?.state !== params.status) continue;
      all.push(params.includeArtifacts ? task : { ...task, artifacts: [] });
    }
  });
  let start = 0;
  if (params.pageToken) {
    const after = Buffer.from(params.pageToken, 'base64url').toString('utf8');
    start = all.findIndex((t) => t.id === after) + 1;
    if (start === 0)
      throw new a2aErrors.RequestMalformedError(`pageToken ${params.pageToken} is not one this list gave.`);
  }
  const tasks = all.slice(start, start + pageSize);
  const more = start + pageSize < all.length;
  return {
    tasks,
    nextPageToken: more ? Buffer.from(tasks.at(-1)!.id, 'utf8').toString('base64url') : '',
    pageSize,
    totalSize: all.length,
  };
}
