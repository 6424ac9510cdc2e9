// What AgentClient.connect opens from the settings in `env`: the Temporal connection (TEMPORAL_ADDRESS,
// TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*, TEMPORAL_PROFILE) and the blob store files are attached
// through (BLOB_STORE, BLOB_DIR or DATA_DIR, S3_*: the worker's). Failures are UserErrors naming what to fix.
import path from 'node:path';
import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
import { openBlobStore, readBlobSettings, type LimitedBlobStore } from '../blobs';
import { DEFAULT_DATA_DIR, temporalTarget } from '../runtime/connection';
import { RECONNECT_QUICKLY } from './server-outage';
import { UserError } from '../core/user-error';

export async function connectTemporal(
  env: NodeJS.ProcessEnv,
  interceptors?: WorkflowClientInterceptor[],
): Promise<Client> {
  const target = temporalTarget(env);
  try {
    const connection = await Connection.connect({
      ...target.connectionOptions,
      connectTimeout: '5 seconds',
      channelArgs: RECONNECT_QUICKLY,
    });
    return new Client({
      connection,
      namespace: target.namespace,
      ...(interceptors ? { interceptors: { workflow: interceptors } } : {}),
    });
  } catch (err) {
    throw new UserError(
      `Cannot reach Temporal at ${target.connectionOptions.address}: ${(err as Error).message}. Is the server running (npm start), or TEMPORAL_ADDRESS set?`,
      'unavailable',
    );
  }
}

export function openFileStore(env: NodeJS.ProcessEnv): LimitedBlobStore {
  try {
    return openBlobStore(readBlobSettings(env, path.resolve(env.DATA_DIR || DEFAULT_DATA_DIR)));
  } catch (err) {
    throw new UserError((err as Error).message);
  }
}
