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
  /** When it was last current (a rollback goes to the latest of these). */
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

  /** The deployment's builds with their state and open conversations; none when no versioned worker ever polled. */
  async status(): Promise<DeploymentStatus> {
    const info = await this.describe();
    if (!info) return { deployment: this.deployment, builds: [] };
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
  async promote(
    buildId: string,
    opts: { rampPercent?: number; atStart?: boolean; conflictToken?: Uint8Array; known?: boolean } = {},
  ): Promise<void> {
    const { rampPercent, atStart = false, conflictToken, known = atStart } = opts;
    if (rampPercent !== undefined && !(Number.isInteger(rampPercent) && rampPercent >= 1 && rampPercent <= 99)) {
      throw new UserError(`--ramp must be a whole percentage from 1 to 99, got ${rampPercent}`);
    }
    // `known`: the caller read it from the deployment (rollback), or it is the caller's own build (a worker at start).
    if (!known) await this.requireBuild(buildId);
    const common = {
      namespace: this.namespace,
      deploymentName: this.deployment,
      buildId,
      identity: this.identity,
      // A worker promoting itself does so before its first poll: its version has no poller, no task queue yet.
      allowNoPollers: atStart,
      ignoreMissingTaskQueues: atStart,
      // Given: refused if the deployment changed since it was read (two workers promoting themselves at once).
      ...(conflictToken ? { conflictToken } : {}),
    };
    await this.call(() =>
      rampPercent === undefined
        ? this.client.workflowService.setWorkerDeploymentCurrentVersion(common)
        : this.client.workflowService.setWorkerDeploymentRampingVersion({ ...common, percentage: rampPercent }),
    );
  }

  /**
   * Undoes the last promotion: a ramp ends (new conversations all start on the current build again); without one,
   * the build current before this one (the latest other build once current) is current again.
   */
  async rollback(): Promise<{ from?: string; to: string }> {
    const info = await this.describe();
    const from = info?.routingConfig?.currentDeploymentVersion?.buildId || undefined;
    const ramping = info?.routingConfig?.rampingDeploymentVersion?.buildId;
    if (ramping && from) {
      await this.endRamp();
      return { from: ramping, to: from };
    }
    const previous = (info?.versionSummaries ?? [])
      .filter((s) => s.deploymentVersion?.buildId && s.deploymentVersion.buildId !== from && s.lastCurrentTime)
      .sort((a, b) => seconds(b.lastCurrentTime) - seconds(a.lastCurrentTime))[0]?.deploymentVersion?.buildId;
    if (!previous) {
      throw new UserError(`Deployment ${this.deployment} has no earlier current build to roll back to.`, 'not_found');
    }
    // A build of this deployment's own list: no need to check it exists.
    await this.promote(previous, { known: true });
    return { ...(from ? { from } : {}), to: previous };
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
    return (await this.read())?.workerDeploymentInfo ?? undefined;
  }

  /** The build new conversations start on, and the token that makes a change conditional on it; none yet: ''. */
  async current(): Promise<{ buildId: string; conflictToken?: Uint8Array }> {
    const read = await this.read();
    const buildId = read?.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId ?? '';
    return { buildId, ...(read?.conflictToken ? { conflictToken: read.conflictToken } : {}) };
  }

  private async read() {
    try {
      return await this.client.workflowService.describeWorkerDeployment({
        namespace: this.namespace,
        deploymentName: this.deployment,
      });
    } catch (err) {
      if (grpcCode(err) === NOT_FOUND) return undefined;
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

  /** A change, with the server's refusals in the user's words: unknown, refused in this state, or bad input. */
  private async call<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } catch (err) {
      const code = grpcCode(err);
      const why = (err as { details?: string }).details || (err as Error).message;
      if (code === NOT_FOUND)
        throw new UserError(`No deployment ${this.deployment}: no versioned worker polled yet.`, 'not_found');
      if (code === FAILED_PRECONDITION) throw new UserError(`Deployment ${this.deployment}: ${why}`, 'refused');
      if (code === INVALID_ARGUMENT) throw new UserError(`Deployment ${this.deployment}: ${why}`, 'invalid');
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

// gRPC status codes the deployment calls answer with.
const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
export const UNIMPLEMENTED = 12;

export function grpcCode(err: unknown): number | undefined {
  return (err as { code?: number }).code;
}

function seconds(t: { seconds?: unknown } | null | undefined): number {
  return Number(t?.seconds ?? 0);
}

function iso(t: { seconds?: unknown; nanos?: number | null }): string {
  return new Date(seconds(t) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
}
