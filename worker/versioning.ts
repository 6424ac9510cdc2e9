// Worker versioning: a worker belongs to a Worker Deployment (WORKER_DEPLOYMENT, the task queue's name by default) as
// one build (WORKER_BUILD_ID, by default the package version and a hash of the workflow code), and every conversation
// is pinned to the build that started it: its workflow tasks only ever go to workers of that build, whose code can
// replay it whatever later builds changed. New conversations start on the deployment's current build; a long one moves
// to the current build when it continues as new (workflows/agent-goal-workflow.ts). WORKER_VERSIONING=off runs
// unversioned, as before: any worker on the task queue takes any task, so a change to the workflow's command sequence
// must be behind patched() or open conversations fail on replay (docs/durability.md).
//
// A versioned worker gets no task until its build is current (or ramping). WORKER_PROMOTE says what a starting worker
// does about that: `first` (the default) makes its build current only when the deployment has none (a first deploy, a
// fresh dev server), `always` makes it current at once (npm start: one machine, one build), `never` leaves it to the
// operator (`agent deploy promote <build>`), and the start line says so.
import type { Client } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import { z } from 'zod';
import { Deployments, grpcCode, UNIMPLEMENTED } from '../client/deployments';
import { readPackageVersion } from '../runtime/package-version';
import { flag } from './setting-kinds';

export const PROMOTE_MODES = ['first', 'always', 'never'] as const;
export type PromoteMode = (typeof PROMOTE_MODES)[number];

const schema = z.object({
  WORKER_VERSIONING: flag('WORKER_VERSIONING', true),
  WORKER_BUILD_ID: z
    .string()
    .regex(/^[A-Za-z0-9_+-][A-Za-z0-9_.+-]{0,99}$/, {
      message: 'WORKER_BUILD_ID must be 1-100 letters, digits, ".", "_", "+" or "-", e.g. release-42.1',
    })
    .optional(),
  WORKER_DEPLOYMENT: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, {
      message: 'WORKER_DEPLOYMENT must be 1-100 letters, digits, "_" or "-", e.g. agents-prod',
    })
    .optional(),
  WORKER_PROMOTE: z
    .enum(PROMOTE_MODES, { message: `WORKER_PROMOTE must be one of ${PROMOTE_MODES.join(', ')}` })
    .default('first'),
});

export const VERSIONING_SETTING_NAMES: readonly string[] = Object.keys(schema.shape);

export interface VersioningSettings {
  deployment: string;
  /** Unset: the package version and the workflow code's hash (buildIdOf). */
  buildId?: string;
  promote: PromoteMode;
}

/** The worker's versioning, or undefined with WORKER_VERSIONING=off. Blank values mean the default. */
export function readVersioningSettings(env: NodeJS.ProcessEnv, taskQueue: string): VersioningSettings | undefined {
  const blankless = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
  const parsed = schema.safeParse(blankless);
  if (!parsed.success) throw new Error(`Bad configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const e = parsed.data;
  if (!e.WORKER_VERSIONING) return undefined;
  return { deployment: e.WORKER_DEPLOYMENT ?? taskQueue, buildId: e.WORKER_BUILD_ID, promote: e.WORKER_PROMOTE };
}

/** `<package version>-<the first 12 digits of the workflow code's hash>`: a new build exactly when the code changes. */
export function defaultBuildId(workflowCodeHash: string): string {
  return `${readPackageVersion()}-${workflowCodeHash.slice(0, 12)}`;
}

/** What Worker.create takes: pinned conversations on this build, or nothing (unversioned). */
export function deploymentOptions(
  versioning: { deployment: string; buildId: string } | undefined,
): Pick<WorkerOptions, 'workerDeploymentOptions'> {
  if (!versioning) return {};
  return {
    workerDeploymentOptions: {
      useWorkerVersioning: true,
      version: { deploymentName: versioning.deployment, buildId: versioning.buildId },
      defaultVersioningBehavior: 'PINNED',
    },
  };
}

/**
 * Does what WORKER_PROMOTE says, before the worker polls; returns the words for its start line: the build, and
 * whether it is current or how to make it so.
 */
export async function promoteAtStart(
  client: Client,
  versioning: { deployment: string; buildId: string; promote: PromoteMode },
): Promise<string> {
  const { deployment, buildId, promote } = versioning;
  const deployments = new Deployments(client, deployment, `worker of build ${buildId}`);
  const named = `build ${buildId} of deployment ${deployment}`;
  const now = await deployments.current().catch((err: unknown) => {
    if (grpcCode(err) !== UNIMPLEMENTED) throw err;
    throw new Error(
      `WORKER_VERSIONING: the Temporal server does not take worker deployments (${(err as Error).message}): it needs Temporal Server 1.28 or later; set WORKER_VERSIONING=off to run unversioned (docs/deploying.md)`,
    );
  });
  if (now.buildId === buildId) return `${named} (current)`;
  if (promote === 'always' || (promote === 'first' && !now.buildId)) {
    try {
      // Conditional on the deployment as read: of two first workers starting at once, one promotes itself.
      await deployments.promote(buildId, { atStart: true, conflictToken: now.conflictToken });
      return `${named} (made current${now.buildId ? `; was ${now.buildId}` : ''})`;
    } catch (err) {
      // Another worker changed the deployment meanwhile: say what it is now.
      const after = (await deployments.current()).buildId;
      if (after === buildId) return `${named} (current)`;
      if (!after) throw err;
    }
  }
  const current = (await deployments.current()).buildId;
  return `${named}, not current (new conversations start on ${current || 'no build yet'}): this worker takes only conversations pinned to its build until promoted: npm run -s agent -- deploy promote ${buildId}`;
}
