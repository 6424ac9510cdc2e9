// `npm run worker`: the worker alone, against TEMPORAL_ADDRESS (default 127.0.0.1:7233).
import { NativeConnection } from '@temporalio/worker';
import { temporalTarget } from '../client/connection';
import { createAgentWorker } from './create-worker';
import { readWorkerSettings } from './settings';

async function main(): Promise<void> {
  const settings = readWorkerSettings();
  const target = temporalTarget();
  const connection = await NativeConnection.connect(target.connectionOptions);
  const { worker, model, close } = await createAgentWorker({ connection, namespace: target.namespace, settings });
  console.log(`worker on ${target.connectionOptions.address} (namespace ${target.namespace}, task queue ${settings.taskQueue}); ${model.description}`);
  // Worker.run() shuts down gracefully on SIGINT/SIGTERM.
  await worker.run();
  await close();
  await connection.close();
}

main().catch((err) => {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});
