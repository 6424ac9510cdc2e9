// The container image's HEALTHCHECK (`node dist/worker/healthcheck.js`): healthy when the process answers on
// HEALTHCHECK_URL, by default the worker's metrics endpoint (METRICS_PORT), which Temporal's runtime serves for as
// long as the worker runs (a worker that stops ends its process). The API's container points it at /api/health,
// which also says whether Temporal is reachable. For a worker it also says its build and whether new conversations
// start on it (`docker inspect` shows the line): a worker of a build that is not current is healthy, serving the
// conversations pinned to its build.
import { Client, Connection } from '@temporalio/client';
import { Deployments } from '../client/deployments';
import { temporalTarget } from '../runtime/connection';
import { readWorkerSettings } from './worker-settings';
import { buildIdOf } from './workflow-bundle';

const url = process.env.HEALTHCHECK_URL || `http://127.0.0.1:${process.env.METRICS_PORT || 9464}/metrics`;

/** `build B of deployment D: current` (or ramping, or not current); unversioned; or why it could not be read. */
async function buildLine(): Promise<string> {
  const { versioning } = readWorkerSettings(process.env);
  if (!versioning) return 'unversioned (WORKER_VERSIONING=off)';
  const buildId = buildIdOf(versioning);
  const target = temporalTarget(process.env);
  const connection = await Connection.connect({ ...target.connectionOptions, connectTimeout: '1 second' });
  try {
    const client = new Client({ connection, namespace: target.namespace });
    const routing = (await new Deployments(client, versioning.deployment).describe())?.routingConfig;
    const current = routing?.currentDeploymentVersion?.buildId;
    const ramping = routing?.rampingDeploymentVersion?.buildId;
    const state =
      current === buildId
        ? 'current'
        : ramping === buildId
          ? `ramping (${routing?.rampingVersionPercentage ?? 0}% of new conversations)`
          : `not current (new conversations start on ${current || 'no build'})`;
    return `build ${buildId} of deployment ${versioning.deployment}: ${state}`;
  } finally {
    await connection.close();
  }
}

/** The build line, or why not, within `ms`: a slow Temporal must not make a serving worker's container unhealthy. */
function buildLineWithin(ms: number): Promise<string> {
  const late = new Promise<string>((resolve) =>
    setTimeout(() => resolve('build unknown: Temporal did not answer in time'), ms).unref(),
  );
  return Promise.race([buildLine().catch((err: unknown) => `build unknown: ${(err as Error).message}`), late]);
}

async function main(): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(4_000) });
    if (!res.ok) return 1;
  } catch (err) {
    console.error(`unhealthy: ${url}: ${(err as Error).message}`);
    return 1;
  }
  if (!process.env.HEALTHCHECK_URL) {
    console.log(`healthy; ${await buildLineWithin(1_500)}`);
  }
  return 0;
}

void main().then((code) => process.exit(code));
