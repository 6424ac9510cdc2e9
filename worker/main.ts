// The worker alone, against TEMPORAL_ADDRESS (default 127.0.0.1:7233). In production compiled, with plain node:
// `npm run build`, then `node dist/worker/main.js` (the workflow code pre-bundled by the build); in development
// `npm run worker` runs this file from source through tsx, bundling the workflow code at its first start (kept
// in node_modules/.cache by the code's hash: worker/bundle-cache.ts).
import { NativeConnection } from '@temporalio/worker';
import { temporalTarget } from '../runtime/connection';
import { applyEnvFile } from '../runtime/env-file';
import { createAgentWorker, installRuntime } from './create-worker';
import { loadFileStore } from '../tools/mock-data/file-store';
import { demoDataFile, readWorkerSettings } from './worker-settings';
import { prebuiltWorkflowBundle } from './workflow-bundle';
import { startTracing } from '../runtime/tracing';

async function main(): Promise<void> {
  applyEnvFile();
  const settings = readWorkerSettings();
  const tracing = startTracing('agent-worker');
  // Before connecting: a compiled worker with a missing or stale bundle stops here, saying to rebuild.
  const workflowBundle = prebuiltWorkflowBundle(!!tracing);
  // Installed before anything logs: no line leaves this process with a configured secret in it.
  const secrets = installRuntime(settings, 'INFO');
  const target = temporalTarget();
  const connection = await NativeConnection.connect(target.connectionOptions);
  // The demo data survives a restart (and a crash: it is written with each tool call's idempotency record).
  const store = loadFileStore(demoDataFile(settings));
  const { worker, model, hooks, build, close } = await createAgentWorker({
    connection,
    namespace: target.namespace,
    settings,
    store,
    secrets,
    workflowBundle,
    tracing,
  });
  console.log(
    `worker on ${target.connectionOptions.address} (namespace ${target.namespace}, task queue ${settings.taskQueue}); ${build}; ${model.description}; demo data in ${demoDataFile(settings)}${workflowBundle ? `; workflow code pre-bundled (${workflowBundle.codePath})` : ''}${hooks.hooks.length ? `; hooks ${hooks.names().join(', ')}` : ''}${tracing ? '; traces to OTLP' : ''}${settings.metrics ? `; metrics on http://${settings.metrics.host}:${settings.metrics.port}/metrics` : ''}`,
  );
  // Worker.run() shuts down gracefully on SIGINT/SIGTERM.
  await worker.run();
  await close();
  await tracing?.shutdown();
  await connection.close();
}

main().catch((err) => {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});
