// A worker process of the scale benchmark: the agent worker as worker/main.ts builds it, from the settings in its
// environment, with the workflow bundle the benchmark has made already (the file named by its one argument), so
// that workers starting together do not each bundle the workflow code again. Says "worker on" when it polls.
// Usage: node --require tsx/cjs bench/scale-worker.ts <workflow bundle file>
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { temporalTarget } from '../runtime/connection';
import { createAgentWorker, secretsOf } from '../worker/create-worker';
import { readWorkerSettings } from '../worker/worker-settings';

async function main(): Promise<void> {
  const codePath = process.argv[2];
  if (!codePath) throw new Error('usage: scale-worker.ts <workflow bundle file>');
  const settings = readWorkerSettings();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const target = temporalTarget();
  const connection = await NativeConnection.connect(target.connectionOptions);
  const { worker, close } = await createAgentWorker({
    connection,
    namespace: target.namespace,
    settings,
    secrets: secretsOf(settings),
    workflowBundle: { codePath },
  });
  console.log(`worker on ${target.connectionOptions.address} (task queue ${settings.taskQueue})`);
  // Worker.run() shuts down gracefully on SIGINT/SIGTERM.
  await worker.run();
  await close();
  await connection.close();
}

main().catch((err: unknown) => {
  console.error(`scale worker: ${(err as Error).message}`);
  process.exit(1);
});
