// `npm start`: the whole product on one machine. Connects to TEMPORAL_ADDRESS when set, else runs the Temporal
// dev server with a SQLite file under DATA_DIR; starts the worker; opens the chat (resuming the last
// conversation when it is still running). Ctrl-C stops what it started, cleanly.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { AgentClient } from '../client/agent-client';
import { runChat } from '../client/chat';
import { temporalTarget } from '../client/connection';
import { UserError } from '../client/user-error';
import { startTrainService } from '../tools/services/train-service';
import { createAgentWorker, createToolWorker, secretsOf } from './create-worker';
import { startDevServer, type DevServer } from './dev-server';
import { demoDataFile, readWorkerSettings } from './settings';
import { loadFileStore } from '../tools/mock-data/file-store';
import { TRAIN_TOOLS_QUEUE } from '../tools/native/trains/task-queue';

const log = (s: string) => console.log(`[start] ${s}`);

async function main(): Promise<void> {
  let settings = readWorkerSettings();
  // The chat shares the terminal with the worker: only its warnings and errors unless asked; never a secret.
  const secrets = secretsOf(settings);
  Runtime.install({ logger: secrets.logger(new DefaultLogger(settings.logLevel ?? 'WARN')) });
  const dataDir = settings.dataDir;
  mkdirSync(dataDir, { recursive: true });

  let server: DevServer | undefined;
  let address = process.env.TEMPORAL_ADDRESS;
  if (!address) {
    server = await startDevServer({ dataDir });
    address = server.address;
    log(`Temporal dev server at ${address} (data in ${path.join(dataDir, 'temporal.db')})`);
    if (server.uiUrl) log(`Temporal UI: ${server.uiUrl}`);
  } else {
    log(`using the Temporal server at ${address}`);
  }

  const env = { ...process.env, TEMPORAL_ADDRESS: address };
  const target = temporalTarget(env);
  const connection = await NativeConnection.connect(target.connectionOptions);
  // One store for the agent worker and the train-tools worker: they run in this one process.
  const store = loadFileStore(demoDataFile(settings));

  // The train tools belong to "another team": their own task queue and HTTP service. For a one-command demo,
  // run both here; in production they are `npm run tool-worker -- train-tools` and the team's service.
  const startTrainTools = process.env.START_TRAIN_TOOLS !== 'false';
  // Our own service (unless TRAIN_SERVICE_URL names one) starts before the workers, so its URL reaches the tools
  // through the settings they are built with.
  const trains = startTrainTools && !process.env.TRAIN_SERVICE_URL ? await startTrainService({ port: 0 }) : undefined;
  if (trains) settings = { ...settings, toolServices: { ...settings.toolServices, trainServiceUrl: trains.url } };

  const agent = await createAgentWorker({ connection, namespace: target.namespace, settings, store, secrets });
  const running = agent.worker.run();
  log(`worker on task queue ${settings.taskQueue}; ${agent.model.description}`);

  let trainTools: Awaited<ReturnType<typeof createToolWorker>> | undefined;
  let trainToolsRunning: Promise<void> | undefined;
  if (startTrainTools) {
    const services = settings.toolServices;
    trainTools = await createToolWorker({ connection, namespace: target.namespace, taskQueue: TRAIN_TOOLS_QUEUE, services, store, secrets, limits: settings.limits });
    trainToolsRunning = trainTools.worker.run();
    log(`train tools on task queue ${TRAIN_TOOLS_QUEUE} (train service ${services.trainServiceUrl})`);
  }

  const client = await AgentClient.connect(settings.taskQueue, env, { onWait: (message) => console.log(message) });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      log('stopping…');
      await client.close().catch(() => undefined);
      if (agent.worker.getState() === 'RUNNING') agent.worker.shutdown();
      await running.catch(() => undefined);
      await agent.close();
      if (trainTools?.worker.getState() === 'RUNNING') trainTools.worker.shutdown();
      await trainToolsRunning?.catch(() => undefined);
      await trains?.close();
      await connection.close().catch(() => undefined);
      await server?.stop();
      log('stopped. Run npm start again to pick the conversation up where you left it.');
    })());
  // Ctrl-C reaches us more than once (npm and tsx forward it too): the first stops cleanly, later ones are absorbed
  // while stopping, a third forces the exit (the dev server is still killed by the exit hook).
  let interrupts = 0;
  const onSignal = (code: number) => () => {
    if (++interrupts >= 3) process.exit(code);
    if (interrupts === 1) void stop().then(() => process.exit(code));
  };
  process.on('SIGINT', onSignal(130));
  process.on('SIGTERM', onSignal(143));

  try {
    const lastFile = path.join(dataDir, 'last-conversation.json');
    const last = readLast(lastFile);
    // Resume the last conversation if it is still running and was started for the same goal setting.
    if (last && last.goalId === settings.defaultGoalId && (await client.isRunning(last.id))) {
      log(`resuming conversation ${last.id} (its state survived the restart)`);
      await runChat(client, last.id, await client.waitForUser(last.id), { input: process.stdin, output: process.stdout });
    } else {
      const { id, greeting } = await client.start(settings.defaultGoalId);
      writeFileSync(lastFile, JSON.stringify({ id, goalId: settings.defaultGoalId }));
      await runChat(client, id, greeting, { input: process.stdin, output: process.stdout });
    }
  } catch (err) {
    console.error(`error: ${err instanceof UserError ? err.message : ((err as Error).stack ?? err)}`);
    process.exitCode = 1;
  }
  await stop();
}

function readLast(file: string): { id: string; goalId: string } | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as { id: string; goalId: string };
  } catch {
    return undefined;
  }
}

main().catch((err) => {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});
