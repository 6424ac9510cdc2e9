// A task queue's Worker Deployment (Temporal's worker versioning), as an operator reads and changes it: which build new
// conversations start on (current), which gets a share of them (ramping), which builds still run open conversations
// and so still need their workers. Versioned workers pin each conversation to the build that started it
// (worker/versioning.ts); promoting a build changes where new ones start, never where an open one runs, until it
// continues as new. One module for `agent deploy`, the API's /api/deploy routes and a worker promoting itself at start.
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { UserError } from '../core/user-error';

const { WorkerDeploymentVersionStatus: Status } = temporal.api.enums.v1;

export type BuildState = 'current' | 'ramping' | 'draining' | 'drained' | 'inactive';

const STATES: Partial<Record<number, BuildState>> = {
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT]: 'current',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING]: 'ramping',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING]: 'draining',
  [Status.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED]: 'drained',
};

export interface BuildStatus {
  buildId: string;
  state: BuildState;
  /** Conversations still running on this build (delegates included). */
  open: number;
  /** Whether its workers may be stopped now, and why (or why not). */
  canStop: boolean;
  why: string;
  createdAt?: string;
  /** When it was last current (a build rolled back to is the latest of these). */
  lastCurrentAt?: string;
}

export interface DeploymentStatus {
  deployment: string;
  /** The build new conversations start on; none before a first promotion. */
  current?: string;
  ramping?: { buildId: string; percentage: number };
  /** Newest first. */
  builds: BuildStatus[];
}

const IDENTITY = 'agent deploy';

export class Deployments {
  constructor(
    private readonly client: Client,
    /** The deployment's name: the task queue's by default (WORKER_DEPLOYMENT). */
    readonly deployment: string,
    private readonly identity = IDENTITY,
  ) {}

  private get namespace(): string {
    return this.client.options.namespace;
  }

  /** The deployment's builds with their state and open conversations; null when no versioned worker ever polled. */
  async status(): Promise<DeploymentStatus | null> {
    const info = await this.describe();
    if (!info) return null;
    const routing = info.routingConfig ?? {};
    const current = routing.currentDeploymentVersion?.buildId || undefined;
    const rampingId = routing.rampingDeploymentVersion?.buildId || undefined;
    const summaries = [...(info.versionSummaries ?? [])].sort((a, b) => seconds(b.createTime) - seconds(a.createTime));
    const builds = await Promise.all(
      summaries.map(async (s): Promise<BuildStatus> => {
        const buildId = s.deploymentVersion?.buildId ?? '';
        const state = STATES[s.status ?? 0] ?? 'inactive';
        const open = await this.openOn(buildId);
        return {
          buildId,
          state,
          open,
          ...verdict(state, open),
          ...(s.createTime ? { createdAt: iso(s.createTime) } : {}),
          ...(s.lastCurrentTime ? { lastCurrentAt: iso(s.lastCurrentTime) } : {}),
        };
      }),
    );
    return {
      deployment: this.deployment,
      ...(current ? { current } : {}),
      ...(rampingId ? { ramping: { buildId: rampingId, percentage: routing.rampingVersionPercentage ?? 0 } } : {}),
      builds,
    };
  }

  /**
   * Makes `buildId` the build new conversations start on; with `rampPercent` (1-99), only that share of them, the
   * rest staying on the current build. `atStart`: a worker promoting its own build before it polls.
   */
  async promote(buildId: string, opts: { rampPercent?: number; atStart?: boolean } = {}): Promise<void> {
    const { rampPercent, atStart = false } = opts;
    if (rampPercent !== undefined && !(Number.isInteger(rampPercent) && rampPercent >= 1 && rampPercent <= 99)) {
      throw new UserError(`--ramp must be a whole percentage from 1 to 99, got ${rampPercent}`);
    }
    if (!atStart) await this.requireBuild(buildId);
    const common = {
      namespace: this.namespace,
      deploymentName: this.deployment,
      buildId,
      identity: this.identity,
      // A worker promoting itself does so before its first poll: its version has no poller, no task queue yet.
      allowNoPollers: atStart,
      ignoreMissingTaskQueues: atStart,
    };
    await this.call(() =>
      rampPercent === undefined
        ? this.client.workflowService.setWorkerDeploymentCurrentVersion(common)
        : this.client.workflowService.setWorkerDeploymentRampingVersion({ ...common, percentage: rampPercent }),
    );
  }

  /** Back to the build that was current before this one (the latest other build once current); any ramp ends. */
  async rollback(): Promise<{ from?: string; to: string }> {
    const status = await this.status();
    const from = status?.current;
    const previous = (status?.builds ?? [])
      .filter((b) => b.buildId !== from && b.lastCurrentAt)
      .sort((a, b) => Date.parse(b.lastCurrentAt!) - Date.parse(a.lastCurrentAt!))[0];
    if (!previous) {
      throw new UserError(`Deployment ${this.deployment} has no earlier current build to roll back to.`, 'not_found');
    }
    if (status?.ramping) await this.endRamp();
    await this.promote(previous.buildId);
    return { ...(from ? { from } : {}), to: previous.buildId };
  }

  /** Ends a ramp: every new conversation starts on the current build again. */
  async endRamp(): Promise<void> {
    await this.call(() =>
      this.client.workflowService.setWorkerDeploymentRampingVersion({
        namespace: this.namespace,
        deploymentName: this.deployment,
        buildId: '',
        percentage: 0,
        identity: this.identity,
      }),
    );
  }

  /** The deployment as Temporal describes it; undefined when it does not exist (yet). */
  async describe() {
    try {
      const { workerDeploymentInfo } = await this.client.workflowService.describeWorkerDeployment({
        namespace: this.namespace,
        deploymentName: this.deployment,
      });
      return workerDeploymentInfo ?? undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Conversations (and delegates) running on the build (visibility: TemporalWorkerDeploymentVersion). The worker's
   * desk is left out: it follows the current build (client/worker-desk.ts), never needing an old one. */
  private async openOn(buildId: string): Promise<number> {
    const query = `TemporalWorkerDeploymentVersion = '${this.deployment}:${buildId}' AND ExecutionStatus = 'Running' AND WorkflowType = 'AgentGoalWorkflow'`;
    return (await this.client.workflow.count(query)).count;
  }

  private async requireBuild(buildId: string): Promise<void> {
    const info = await this.describe();
    const known = (info?.versionSummaries ?? []).map((s) => s.deploymentVersion?.buildId ?? '');
    if (!known.includes(buildId)) {
      throw new UserError(
        `Deployment ${this.deployment} has no build ${buildId}${known.length ? ` (its builds: ${known.join(', ')})` : ''}: start a worker of that build first (its log names the build).`,
        'not_found',
      );
    }
  }

  private async call<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } catch (err) {
      if (isNotFound(err))
        throw new UserError(`No deployment ${this.deployment}: no versioned worker polled yet.`, 'not_found');
      throw err;
    }
  }
}

/** Whether a build's workers may stop: not while new conversations start on it, nor while conversations run on it. */
function verdict(state: BuildState, open: number): { canStop: boolean; why: string } {
  if (state === 'current') return { canStop: false, why: 'new conversations start on it' };
  if (state === 'ramping') return { canStop: false, why: 'a share of new conversations start on it' };
  if (open > 0) return { canStop: false, why: `${open} open conversation${open === 1 ? '' : 's'} run on it` };
  return { canStop: true, why: 'no open conversation runs on it' };
}

function isNotFound(err: unknown): boolean {
  return (err as { code?: number }).code === 5; // gRPC NOT_FOUND
}

function seconds(t: { seconds?: unknown } | null | undefined): number {
  return Number(t?.seconds ?? 0);
}

function iso(t: { seconds?: unknown; nanos?: number | null }): string {
  return new Date(seconds(t) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
}
