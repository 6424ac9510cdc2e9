// The HTTP API alone in a process of its own (`npm run api`'s entry point, api/main.ts), in front of a worker that
// runs in the bench process: the deployment where the text being written travels through Redis (REDIS_URL).
import path from 'node:path';
import { startProcess } from '../testkit/process';
import { externalServerSettings } from './server';

const ROOT = path.join(__dirname, '..');

export interface ApiProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startApiProcess(opts: {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  redisUrl: string;
  goalId: string;
}): Promise<ApiProcess> {
  // The bench's own server: none of the caller's Temporal or API settings (keys, TLS, profiles) apply to it.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !/^(TEMPORAL_|API_|CORS_)/.test(e[0]),
    ),
  );
  const api = await startProcess(process.execPath, ['--require', 'tsx/cjs', 'api/main.ts'], {
    cwd: ROOT,
    env: {
      ...inherited,
      ...externalServerSettings(),
      TEMPORAL_ADDRESS: opts.temporalAddress,
      TEMPORAL_NAMESPACE: opts.namespace,
      TASK_QUEUE: opts.taskQueue,
      REDIS_URL: opts.redisUrl,
      AGENT_GOAL: opts.goalId,
      API_PORT: '0',
      API_HOST: '127.0.0.1',
      API_KEYS: '',
      API_ADMIN_KEYS: '',
      ENV_FILE: '/dev/null',
    },
    ready: /API (http:\/\/\S+)\/api/,
    what: 'the API process',
  });
  return {
    url: api.ready[1]!,
    stop: () => api.end('SIGTERM'),
  };
}
