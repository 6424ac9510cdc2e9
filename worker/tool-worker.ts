// `npm run tool-worker -- <taskQueue>`: serves the native tools routed to that task queue (a separate process,
// as the team owning those tools would run it).
import { NativeConnection } from '@temporalio/worker';
import { temporalTarget } from '../client/connection';
import { createToolWorker } from './create-worker';
import { readWorkerSettings } from './settings';

async function main(): Promise<void> {
  const taskQueue = process.argv[2];
  if (!taskQueue) throw new Error('usage: npm run tool-worker -- <taskQueue>');
  const settings = readWorkerSettings();
  const target = temporalTarget();
  const connection = await NativeConnection.connect(target.connectionOptions);
  const { worker, tools } = await createToolWorker({ connection, namespace: target.namespace, taskQueue, services: settings.toolServices });
  console.log(`tool worker on ${target.connectionOptions.address}, task queue ${taskQueue}: ${tools.names().join(', ')}`);
  await worker.run();
  await connection.close();
}

main().catch((err) => {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});
