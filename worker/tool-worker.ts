// `npm run tool-worker -- <taskQueue>`: serves the native tools routed to that task queue (a separate process,
// as the team owning those tools would run it).
import { NativeConnection } from '@temporalio/worker';
import { temporalTarget } from '../runtime/connection';
import { applyEnvFile } from '../runtime/env-file';
import { createToolWorker, installRuntime } from './create-worker';
import { loadHooks } from '../activities/hooks/load-hooks';
import { startTracing } from '../runtime/tracing';
import { loadFileStore } from '../tools/mock-data/file-store';
import { demoDataFile, readWorkerSettings } from './worker-settings';

async function main(): Promise<void> {
  const taskQueue = process.argv[2];
  if (!taskQueue) throw new Error('usage: npm run tool-worker -- <taskQueue>');
  applyEnvFile();
  const settings = readWorkerSettings();
  const secrets = installRuntime(settings, 'INFO');
  const target = temporalTarget();
  const connection = await NativeConnection.connect(target.connectionOptions);
  const store = loadFileStore(demoDataFile(settings, taskQueue));
  const tracing = startTracing('agent-tool-worker');
  const { worker, tools } = await createToolWorker({
    connection,
    namespace: target.namespace,
    taskQueue,
    services: settings.toolServices,
    store,
    secrets,
    limits: settings.limits,
    tracing,
    hooks: loadHooks(settings.hooks),
  });
  console.log(
    `tool worker on ${target.connectionOptions.address}, task queue ${taskQueue}: ${tools.names().join(', ')}; demo data in ${demoDataFile(settings, taskQueue)}`,
  );
  await worker.run();
  await tracing?.shutdown();
  await connection.close();
}

main().catch((err) => {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});
