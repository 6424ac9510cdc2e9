// Where conversations live: Temporal connection settings from the environment (TEMPORAL_ADDRESS,
// TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE and the config file) and the default task
// queue. Clients and workers both import this module; it imports neither.
import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';

/** The task queue agent workers serve and clients start conversations on, unless TASK_QUEUE says otherwise. */
export const DEFAULT_TASK_QUEUE = 'agent-task-queue';

export interface TemporalTarget {
  connectionOptions: NativeConnectionOptions;
  namespace: string;
}

export function temporalTarget(env: NodeJS.ProcessEnv = process.env, overrideAddress?: string): TemporalTarget {
  const vars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const config = loadClientConnectConfig({ overrideEnvVars: vars });
  const connectionOptions = { ...config.connectionOptions };
  if (overrideAddress) connectionOptions.address = overrideAddress;
  if (!connectionOptions.address) connectionOptions.address = '127.0.0.1:7233';
  return { connectionOptions, namespace: config.namespace ?? 'default' };
}
