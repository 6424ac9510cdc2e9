// What a pinned conversation asks before it moves builds (workflows/agent-goal-workflow.ts): Temporal says only that
// the deployment now routes elsewhere (targetWorkerDeploymentVersionChanged), not whether to a newer build or, after
// a rollback, to an older one. A conversation moves forward only: its state was written by its own build's code.
import type { Client } from '@temporalio/client';
import type { DeploymentActivities } from '../core/activity-types';

export function createDeploymentActivities(temporal: Client): DeploymentActivities {
  return {
    async newerBuildRouted({ deployment, buildId }) {
      const { workerDeploymentInfo: info } = await temporal.workflowService.describeWorkerDeployment({
        namespace: temporal.options.namespace,
        deploymentName: deployment,
      });
      const created = new Map(
        (info?.versionSummaries ?? []).map((s) => [s.deploymentVersion?.buildId ?? '', nanos(s.createTime)]),
      );
      const routing = info?.routingConfig;
      const own = created.get(buildId) ?? 0n;
      return [routing?.currentDeploymentVersion?.buildId, routing?.rampingDeploymentVersion?.buildId].some(
        (id) => !!id && id !== buildId && (created.get(id) ?? 0n) > own,
      );
    },
  };
}

/** A timestamp in nanoseconds: two builds' workers may first poll within the same second. */
function nanos(t: { seconds?: unknown; nanos?: number | null } | null | undefined): bigint {
  return BigInt(String(t?.seconds ?? 0)) * 1_000_000_000n + BigInt(t?.nanos ?? 0);
}
