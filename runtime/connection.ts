// Where conversations live: Temporal connection settings from the environment (TEMPORAL_ADDRESS,
// TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE and the config file), else the server
// `npm start` runs (it records its address in DATA_DIR), else 127.0.0.1:7233; and the default task queue. Clients
// and workers both import this module; it imports neither.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { PROJECT_ROOT } from '../tools/project-root';

/** The Temporal connection's variables (read by @temporalio/envconfig), for deployments that must pass them on. */
export const CONNECTION_SETTING_NAMES: readonly string[] = [
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_API_KEY',
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_TLS_DISABLE_HOST_VERIFICATION',
  'TEMPORAL_PROFILE',
  'TEMPORAL_CONFIG_FILE',
];

/** The task queue agent workers serve and clients start conversations on, unless TASK_QUEUE says otherwise. */
export const DEFAULT_TASK_QUEUE = 'agent-task-queue';
/** Where `npm start` keeps its state (the dev server's database, demo data), unless DATA_DIR says otherwise: in the
 * project, found from here whether this runs from source or compiled into dist/. */
export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, 'data');

/** The dev server `npm start` runs, as recorded for the CLI and `npm run worker` to find it. */
export interface EmbeddedServer {
  address: string;
  uiUrl: string | null;
  /** The process that runs it: a record whose process is gone is stale. */
  pid: number;
}

const serverFile = (env: NodeJS.ProcessEnv) =>
  path.join(path.resolve(env.DATA_DIR ?? DEFAULT_DATA_DIR), 'temporal-server.json');

/** Records the embedded server (npm start); returns a function that forgets it again. */
export function recordEmbeddedServer(
  server: Omit<EmbeddedServer, 'pid'>,
  env: NodeJS.ProcessEnv = process.env,
): () => void {
  const file = serverFile(env);
  writeFileSync(file, JSON.stringify({ ...server, pid: process.pid } satisfies EmbeddedServer));
  return () => rmSync(file, { force: true });
}

/** The server a running `npm start` recorded for this DATA_DIR, if its process is still alive. */
export function embeddedServer(env: NodeJS.ProcessEnv = process.env): EmbeddedServer | null {
  let recorded: EmbeddedServer;
  try {
    recorded = JSON.parse(readFileSync(serverFile(env), 'utf8')) as EmbeddedServer;
    process.kill(recorded.pid, 0);
  } catch {
    return null; // none recorded, unreadable, or its npm start has gone
  }
  return recorded;
}

export interface TemporalTarget {
  connectionOptions: NativeConnectionOptions;
  namespace: string;
}

export function temporalTarget(env: NodeJS.ProcessEnv = process.env, overrideAddress?: string): TemporalTarget {
  const vars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const config = loadClientConnectConfig({ overrideEnvVars: vars });
  const connectionOptions = { ...config.connectionOptions };
  if (overrideAddress) connectionOptions.address = overrideAddress;
  if (!connectionOptions.address) connectionOptions.address = embeddedServer(env)?.address ?? '127.0.0.1:7233';
  return { connectionOptions, namespace: config.namespace ?? 'default' };
}
