// `npm run api`: the HTTP API and web chat alone, in front of workers that run elsewhere (npm run worker). The
// text being written reaches it through Redis (REDIS_URL), where those workers publish it.
import { AgentClient } from '../client/agent-client';
import { DEFAULT_TASK_QUEUE } from '../runtime/connection';
import { applyEnvFile } from '../runtime/env-file';
import { PICKER_GOAL_ID } from '../goals/goal-registry';
import { createStreamBus } from '../stream';
import { startApi } from './server';
import { startTracing } from '../runtime/tracing';
import { readApiSettings } from './api-settings';
import { openBlobStore } from '../blobs';

async function main(): Promise<void> {
  applyEnvFile();
  const settings = readApiSettings();
  const taskQueue = process.env.TASK_QUEUE || DEFAULT_TASK_QUEUE;
  if (!process.env.REDIS_URL) {
    console.warn(
      'REDIS_URL is not set: replies arrive whole, without live text (workers in other processes publish it to Redis).',
    );
  }
  const bus = createStreamBus(process.env.REDIS_URL);
  // Conversations started here begin their traces here (StartWorkflow), when OTLP tracing is configured.
  const tracing = startTracing('agent-api');
  const agents = await AgentClient.connect(taskQueue, process.env, {
    interceptors: tracing?.clientInterceptors,
    ...(settings.files ? { files: openBlobStore(settings.files) } : {}),
  });
  const api = await startApi({ agents, bus, settings, defaultGoal: process.env.AGENT_GOAL || PICKER_GOAL_ID });
  console.log(
    `API ${api.url}/api (task queue ${taskQueue}); ${api.web ? `web chat ${api.url}/` : 'web chat not built (npm run build)'}`,
  );
  console.log(
    settings.keys
      ? `${settings.keys.size} API key(s); every /api route needs Authorization: Bearer <key>`
      : 'no API_KEYS: listening on 127.0.0.1 only, anyone on this machine may call it',
  );
  const stop = async () => {
    await api.close();
    await bus.close();
    await agents.close();
    await tracing?.shutdown().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err) => {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
});
