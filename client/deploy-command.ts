// `agent deploy status | promote <build> [--ramp <percent>] | rollback`: the task queue's Worker Deployment as an
// operator handles it (client/deployments.ts). The deployment is WORKER_DEPLOYMENT, else the task queue's name, as the
// workers' own default is.
import type { Client } from '@temporalio/client';
import { UserError } from '../core/user-error';
import { Deployments, type DeploymentStatus } from './deployments';

export const DEPLOY_USAGE = 'usage: agent deploy status | promote <buildId> [--ramp <percent>] | rollback';

export async function deployCommand(
  client: Client,
  deployment: string,
  args: string[],
  ramp: string | undefined,
): Promise<{ human: string; data: unknown }> {
  const deployments = new Deployments(client, deployment);
  const [action, buildId, ...extra] = args;
  if (extra.length || (action !== 'promote' && (buildId || ramp !== undefined))) throw new UserError(DEPLOY_USAGE);
  switch (action) {
    case 'status': {
      const status = await deployments.status();
      return { human: formatStatus(status), data: status };
    }
    case 'promote': {
      if (!buildId) throw new UserError(`promote needs a build id. ${DEPLOY_USAGE}`);
      const rampPercent = ramp === undefined ? undefined : Number(ramp.replace(/%$/, ''));
      await deployments.promote(buildId, { rampPercent });
      const human =
        rampPercent === undefined
          ? `build ${buildId} is current: new conversations start on it; open ones move to it at their next continue-as-new, after a turn`
          : `build ${buildId} is ramping: ${rampPercent}% of new conversations start on it, the rest on the current build`;
      return { human, data: { deployment, buildId, ...(rampPercent === undefined ? {} : { rampPercent }) } };
    }
    case 'rollback': {
      const { from, to } = await deployments.rollback();
      return {
        human: `build ${to} is current again${from ? ` (was ${from}; conversations open on ${from} keep running there)` : ''}`,
        data: { deployment, from, to },
      };
    }
    default:
      throw new UserError(DEPLOY_USAGE);
  }
}

export function formatStatus(status: DeploymentStatus): string {
  const { deployment } = status;
  if (!status.builds.length) {
    return `deployment ${deployment}: no versioned worker has polled yet (workers off versioning, WORKER_VERSIONING=off, or none started)`;
  }
  const ramp = status.ramping ? `, ramping ${status.ramping.buildId} at ${status.ramping.percentage}%` : '';
  const width = Math.max(5, ...status.builds.map((b) => b.buildId.length));
  return [
    `deployment ${deployment}: new conversations start on ${status.current ?? 'no build (none is current)'}${ramp}`,
    `${'build'.padEnd(width)}  ${'state'.padEnd(8)}  ${'open'.padStart(4)}  stop its workers?`,
    ...status.builds.map(
      (b) =>
        `${b.buildId.padEnd(width)}  ${b.state.padEnd(8)}  ${String(b.open).padStart(4)}  ${b.canStop ? 'yes' : 'no'}: ${b.why}`,
    ),
  ].join('\n');
}
