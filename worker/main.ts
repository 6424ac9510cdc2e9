// `npm run worker`: the worker alone, against TEMPORAL_ADDRESS (default 127.0.0.1:7233).
import { NativeConnection, Runtime } from '@temporalio/worker';
import { processLogger } from './process-logger';
import { temporalTarget } from '../client/connection';
import { applyEnvFile } from '../client/env-file';
import { createAgentWorker, secretsOf } from './create-worker';
import { loadFileStore } from '../tools/mock-data/file-store';
import { demoDataFile, readWorkerSettings } from './settings';

async function main(): Promise<void> {
  applyEnvFile();
  const settings = readWorkerSettings();
  // Installed before anything logs: no line leaves this process with a configured secret in it.
  const secrets = secretsOf(settings);
  Runtime.install({ logger: processLogger(secrets, settings.logLevel ?? 'INFO') });
  const target = temporalTarget();
  const connection = await NativeConnection.connect(target.connectionOptions);
  // The demo data survives a restart (and a crash: it is written with each tool call's idempotency record).
  const store = loadFileStore(demoDataFile(settings));
  const { worker, model, close } = await createAgentWorker({ connection, namespace: target.namespace, settings, store, secrets });
  console.log(`worker on ${target.connectionOptions.address} (namespace ${target.namespace}, task queue ${settings.taskQueue}); ${model.description}; demo data in ${demoDataFile(settings)}`);
  // Worker.run() shuts down gracefully on SIGINT/SIGTERM.
  await worker.run();
  await close();
  await connection.close();
}

main().catch((err) => {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});
