// Questions for the worker rather than for a conversation (`agent agents`, `agent endpoints`, `agent tools`, goal
// files): asked through its task queue's describe workflow (workflows/describe-workflows.ts), started by the first
// question and reused by every later one, so the answer is the worker's view, not this process's, and asking leaves
// no row per question in the workflow list where conversations are.
import type { UpdateDefinition } from '@temporalio/common';
import {
  ApplicationFailure,
  type Client,
  WithStartWorkflowOperation,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { DescribeWorkflow } from '../workflows';
import { describeWorkflowId } from '../workflows/describe-workflows';
import { FailureTypes } from '../core/activity-types';
import { UserError, type UserErrorKind } from '../core/user-error';
import { Deployments } from './deployments';

/** How long a question to the worker may take: discovery of a slow endpoint is bounded well below. */
const ASK_WORKER_MS = 60_000;

export class WorkerDesk {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  /**
   * Fails within seconds, before starting anything, when no worker polls the task queue: a conversation (or a
   * describe workflow) would otherwise wait for one, silently, with nothing to show for it.
   */
  async requireWorker(waitMs = 5_000): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { pollers } = await this.client.workflowService.describeTaskQueue({
        namespace: this.client.options.namespace,
        taskQueue: { name: this.taskQueue },
        taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      });
      if (pollers?.length) return this.requireCurrentBuild(pollers);
      if (Date.now() > deadline) {
        throw new UserError(
          `No worker is serving task queue "${this.taskQueue}": start one (npm run worker, or npm start), or set TASK_QUEUE to the one it serves.`,
          'unavailable',
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /**
   * Versioned workers poll, yet none of their builds is current (each started with WORKER_PROMOTE=never, or the
   * current build's workers all stopped): a new conversation would wait, silently. Says what to promote instead.
   */
  private async requireCurrentBuild(pollers: temporal.api.taskqueue.v1.IPollerInfo[]): Promise<void> {
    const versioned = pollers.map((p) => p.deploymentOptions).filter((o) => o?.deploymentName && o.buildId);
    if (versioned.length < pollers.length) return; // an unversioned worker takes any new conversation
    const deployment = versioned[0]!.deploymentName!;
    const builds = [...new Set(versioned.map((o) => o!.buildId!))];
    const current = (await new Deployments(this.client, deployment).current()).buildId;
    if (current && builds.includes(current)) return;
    const now = current
      ? `its current build ${current} has no worker`
      : `no build of deployment ${deployment} is current`;
    throw new UserError(
      `Workers of build ${builds.join(', ')} serve task queue "${this.taskQueue}", but ${now}, so a new conversation would wait: promote one (npm run -s agent -- deploy promote ${builds[0]})${current ? ` or start workers of ${current}` : ''}.`,
      'unavailable',
    );
  }

  /** Asks the worker; its failure (an unknown goal or made tool, say) comes back as a user error. */
  async ask<T, Args extends unknown[]>(question: UpdateDefinition<T, Args>, args: Args): Promise<T> {
    await this.requireWorker();
    const desk = new WithStartWorkflowOperation(DescribeWorkflow, {
      taskQueue: this.taskQueue,
      workflowId: describeWorkflowId(this.taskQueue),
      workflowIdConflictPolicy: 'USE_EXISTING',
      versioningOverride: 'AUTO_UPGRADE',
      staticSummary: `Answers agent agents / endpoints / tools for task queue ${this.taskQueue}; not a conversation`,
      args: [],
    });
    try {
      return await this.client.withDeadline(Date.now() + ASK_WORKER_MS, () =>
        this.client.workflow.executeUpdateWithStart(question, { args, startWorkflowOperation: desk }),
      );
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) {
        // The activity's own message (e.g. the unknown goal) is two causes down.
        const cause = err.cause as ({ cause?: Error } & Error) | undefined;
        throw new UserError(cause?.cause?.message ?? cause?.message ?? err.message, kindOf(cause?.cause));
      }
      throw err;
    }
  }
}

/**
 * A made tool or an MCP endpoint (or its resource, its prompt) named in the path of a request is not found (404
 * from the API); an unknown goal stays `invalid`, as
 * the goal is a field of the request (400 naming it).
 */
function kindOf(failure: Error | undefined): UserErrorKind {
  if (!(failure instanceof ApplicationFailure)) return 'invalid';
  const notFound = [FailureTypes.UnknownTool, FailureTypes.UnknownEndpoint, FailureTypes.NotFound] as (string | null)[];
  if (notFound.includes(failure.type ?? null)) return 'not_found';
  return failure.type === FailureTypes.Refused ? 'refused' : 'invalid';
}
