// What every part of the benchmark needs from the run: the server, the agent's workflow bundle (built once), ids
// unique to this run, and the interrupt check.
import type { Client } from '@temporalio/client';
import type { NativeConnection, WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Interrupts } from './interrupts';

export interface BenchContext {
  client: Client;
  connection: NativeConnection;
  namespace: string;
  agentBundle: WorkflowBundleWithSourceMap;
  /** Makes workflow ids and task queues unique to this run. */
  runId: string;
  interrupts: Interrupts;
}
