// The peer's worker in a process of its own (so its CPU time is its own), as its documentation sets one up: the
// AiSdkPlugin with a model provider (here `openai-compatible`, pointed at the bench's local Chat Completions server),
// the workflow bundle the bench built, the tool's activity. The server from the environment as Temporal's envconfig
// reads it (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TLS and API key); TASK_QUEUE, PEER_BUNDLE, LLM_BASE_URL. Prints
// "worker on" once it polls.
import { readFileSync } from 'node:fs';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AiSdkPlugin } from '@temporalio/ai-sdk';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { NativeConnection, Worker } from '@temporalio/worker';
import * as activities from './activities';

async function main(): Promise<void> {
  const env = (name: string) => process.env[name] ?? fail(`${name} is not set`);
  const server = loadClientConnectConfig();
  const connection = await NativeConnection.connect(server.connectionOptions);
  const worker = await Worker.create({
    connection,
    namespace: server.namespace ?? 'default',
    taskQueue: env('TASK_QUEUE'),
    workflowBundle: { code: readFileSync(env('PEER_BUNDLE'), 'utf8') },
    activities,
    plugins: [
      new AiSdkPlugin({ modelProvider: createOpenAICompatible({ name: 'bench', baseURL: env('LLM_BASE_URL') }) }),
    ],
  });
  const running = worker.run();
  console.log(`worker on ${env('TASK_QUEUE')}`);
  const stop = () => worker.shutdown();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await running;
  await connection.close();
}

function fail(message: string): never {
  throw new Error(`peer worker: ${message}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
