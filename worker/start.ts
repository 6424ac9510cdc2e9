// `npm start`: the whole product on one machine. Connects to TEMPORAL_ADDRESS when set, else runs the Temporal
// dev server with a SQLite file under DATA_DIR; starts the worker, the HTTP API and the web chat (sharing the
// worker's in-process stream bus); opens the terminal chat (resuming the last conversation when it is still
// running) unless `--no-chat`. Ctrl-C stops what it started, cleanly. `--reset` first puts the demo data back as
// shipped.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { startApi, WEB_ROOT, type RunningApi } from '../api/server';
import { readApiSettings } from '../api/api-settings';
import { AgentClient } from '../client/agent-client';
import { runChat } from '../client/chat';
import { recordEmbeddedServer, temporalTarget } from '../runtime/connection';
import { applyEnvFile } from '../runtime/env-file';
import type { ConversationSummary } from '../core/conversation-types';
import { UserError } from '../core/user-error';
import { DEFAULT_TRAIN_SERVICE_PORT, startTrainService } from '../demo/train-service';
import { createAgentWorker, createToolWorker, installRuntime } from './create-worker';
import { startTracing } from '../runtime/tracing';
import { resetDemoData } from './demo-data';
import { startDevServer, type DevServer } from './dev-server';
import { demoDataFile, PROJECT_ROOT, readWorkerSettings } from './worker-settings';
import { loadFileStore } from '../tools/mock-data/file-store';
import { TRAIN_TOOLS_QUEUE } from '../tools/native/trains/task-queue';
import { createStreamBus } from '../stream';

const log = (s: string) => console.log(`[start] ${s}`);

async function main(): Promise<void> {
  const envFile = applyEnvFile();
  let settings = readWorkerSettings();
  const apiSettings = readApiSettings();
  const chat = !process.argv.includes('--no-chat');
  // The chat shares the terminal with the worker: only its warnings and errors unless asked; never a secret.
  const secrets = installRuntime(settings, 'WARN');
  const dataDir = settings.dataDir;
  mkdirSync(dataDir, { recursive: true });

  if (envFile) log(`settings from ${envFile}`);
  // Before any tool store or demo server reads its file.
  if (process.argv.includes('--reset')) {
    const deleted = resetDemoData(settings);
    log(`demo data reset${deleted.length ? `: deleted ${deleted.join(', ')}` : ' (it was as shipped)'}`);
  }
  let server: DevServer | undefined;
  let forgetServer: (() => void) | undefined;
  let address = process.env.TEMPORAL_ADDRESS;
  if (!address) {
    server = await startDevServer({ dataDir, ...settings.devServer });
    address = server.address;
    // The agent CLI and `npm run worker` find it through this record; other tools need the address exported.
    forgetServer = recordEmbeddedServer({ address, uiUrl: server.uiUrl });
    // However this process ends (an error before the chat, a forced exit), the record goes with it.
    process.once('exit', forgetServer);
    log(`Temporal dev server at ${address} (data in ${path.join(dataDir, 'temporal.db')})`);
    if (server.uiUrl) log(`Temporal UI: ${server.uiUrl}`);
    if (address !== `127.0.0.1:${settings.devServer.port}`) {
      log(
        `port ${settings.devServer.port} was taken: npm run agent finds this server by itself; elsewhere export TEMPORAL_ADDRESS=${address}`,
      );
    }
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
  const trains = startTrainTools && !process.env.TRAIN_SERVICE_URL ? await startOwnTrainService() : undefined;
  if (trains) settings = { ...settings, toolServices: { ...settings.toolServices, trainServiceUrl: trains.url } };

  // The API shares the worker's bus: the text being written goes from the model call to the browser in-process
  // (or through Redis, with REDIS_URL, when other workers serve the queue too).
  const streamBus = createStreamBus(settings.redisUrl);
  const tracing = startTracing('agent-orchestrator');
  const agent = await createAgentWorker({
    connection,
    namespace: target.namespace,
    // One machine, one build: this start's build is the one new conversations start on, unless WORKER_PROMOTE says.
    settings: settings.versioning
      ? {
          ...settings,
          versioning: {
            ...settings.versioning,
            promote: process.env.WORKER_PROMOTE ? settings.versioning.promote : 'always',
          },
        }
      : settings,
    store,
    secrets,
    streamBus,
    tracing,
  });
  const running = agent.worker.run();
  const hooks = agent.hooks.names();
  log(
    `worker on task queue ${settings.taskQueue}; ${agent.build}; ${agent.model.description}${hooks.length ? `; hooks ${hooks.join(', ')}` : ''}`,
  );

  let trainTools: Awaited<ReturnType<typeof createToolWorker>> | undefined;
  let trainToolsRunning: Promise<void> | undefined;
  if (startTrainTools) {
    const services = settings.toolServices;
    trainTools = await createToolWorker({
      connection,
      namespace: target.namespace,
      taskQueue: TRAIN_TOOLS_QUEUE,
      services,
      store,
      secrets,
      limits: settings.limits,
      tracing,
      hooks: agent.hooks,
    });
    trainToolsRunning = trainTools.worker.run();
    log(`train tools on task queue ${TRAIN_TOOLS_QUEUE} (train service ${services.trainServiceUrl})`);
  }

  const client = await AgentClient.connect(settings.taskQueue, env, {
    onWait: (message) => console.log(message),
    interceptors: tracing?.clientInterceptors,
  });
  await buildWebChatIfMissing();
  const api = await startApiOnFreePort({
    agents: client,
    bus: streamBus,
    // The run view links each workflow to the embedded server's UI unless TEMPORAL_UI_URL says otherwise.
    settings: { ...apiSettings, temporalUiUrl: apiSettings.temporalUiUrl ?? server?.uiUrl ?? undefined },
    defaultGoal: settings.defaultGoalId,
  });
  log(
    `web chat ${api.url}/ and HTTP API ${api.url}/api${api.web ? '' : ' (the web chat is not built: npm run build)'}`,
  );
  log(
    apiSettings.keys
      ? `${apiSettings.keys.size} API key(s): every /api route needs Authorization: Bearer <key>`
      : 'no API_KEYS: the API listens on 127.0.0.1 only',
  );
  let stopping: Promise<void> | undefined;
  /** Whether the chat's conversation is still running: only then does the next npm start pick it up. */
  let resumable = true;
  const stop = () =>
    (stopping ??= (async () => {
      log('stopping…');
      await api.close().catch(() => undefined);
      await client.close().catch(() => undefined);
      if (agent.worker.getState() === 'RUNNING') agent.worker.shutdown();
      await running.catch(() => undefined);
      await agent.close();
      if (trainTools?.worker.getState() === 'RUNNING') trainTools.worker.shutdown();
      await trainToolsRunning?.catch(() => undefined);
      await trains?.close();
      await streamBus.close();
      await tracing?.shutdown().catch(() => undefined);
      await connection.close().catch(() => undefined);
      forgetServer?.();
      await server?.stop();
      log(resumable ? 'stopped. Run npm start again to pick the conversation up where you left it.' : 'stopped.');
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

  if (!chat) {
    log('no terminal chat (--no-chat): open the web chat; Ctrl-C stops');
    resumable = false; // conversations live on in Temporal; the web chat lists them
    return;
  }
  try {
    const resume = await latestConversation(client, settings.defaultGoalId, settings.conversation.multiGoal);
    if (resume) {
      log(
        `resuming conversation ${resume.id}${resume.title ? ` ("${resume.title}")` : ''}; its state survived the restart (others: npm run -s agent -- list)`,
      );
    }
    const { id, greeting } = resume
      ? { id: resume.id, greeting: await client.waitForUser(resume.id) }
      : await client.start(settings.defaultGoalId);
    await runChat(client, id, greeting, { input: process.stdin, output: process.stdout, stream: streamBus });
    resumable = await client.isRunning(id).catch(() => true);
  } catch (err) {
    console.error(`error: ${err instanceof UserError ? err.message : ((err as Error).stack ?? err)}`);
    process.exitCode = 1;
    resumable = false;
  }
  await stop();
}

/**
 * The newest running conversation of this task queue to resume: of the default goal, or any (multi-goal mode,
 * where a conversation moves between agents). None when the server cannot search conversations: a new one starts.
 */
async function latestConversation(
  client: AgentClient,
  goalId: string,
  multiGoal: boolean,
): Promise<ConversationSummary | undefined> {
  try {
    const [latest] = await client.list({
      state: 'running',
      taskQueue: client.taskQueue,
      ...(multiGoal ? {} : { goal: goalId }),
      limit: 1,
    });
    return latest;
  } catch (err) {
    log(`not resuming: ${(err as Error).message}`);
    return undefined;
  }
}

/**
 * A fresh clone has no dist/web: build it once (vite, a few seconds) so the first `npm start` serves the web chat.
 * Without vite (an installed package ships dist/web), or if the build fails, the API runs and says how to build.
 */
async function buildWebChatIfMissing(): Promise<void> {
  if (existsSync(path.join(WEB_ROOT, 'index.html'))) return;
  const vite = path.join(PROJECT_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(vite)) return;
  log('building the web chat (once; npm run build does it again)…');
  const built = await new Promise<boolean>((resolve) => {
    execFile(
      process.execPath,
      [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'],
      { cwd: PROJECT_ROOT },
      (err, _out, stderr) => {
        if (err) log(`the web chat did not build: ${stderr.trim().split('\n')[0] ?? err.message}`);
        resolve(!err);
      },
    );
  });
  if (built) log('web chat built into dist/web');
}

/** The API on API_PORT, or on a free port when that one is taken (said in the banner, as for Temporal's ports). */
async function startApiOnFreePort(deps: Parameters<typeof startApi>[0]): Promise<RunningApi> {
  try {
    return await startApi(deps);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    log(`port ${deps.settings.port} was taken (API_PORT): the API takes a free one`);
    return startApi({ ...deps, settings: { ...deps.settings, port: 0 } });
  }
}

main().catch((err) => {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});

/**
 * The demo train service on its usual port, where the registry's `trains` HTTP API entry (config/mcp_endpoints.json)
 * finds it; on another when that one is taken (the native train tools follow either way, the HTTP API entry does not).
 */
async function startOwnTrainService() {
  try {
    return await startTrainService({ port: DEFAULT_TRAIN_SERVICE_PORT });
  } catch {
    const trains = await startTrainService({ port: 0 });
    console.warn(
      `warning: port ${DEFAULT_TRAIN_SERVICE_PORT} is taken: the train service is on ${trains.url}, so the "trains" HTTP API (config/mcp_endpoints.json) cannot reach it`,
    );
    return trains;
  }
}
