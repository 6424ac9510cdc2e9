// What every part of the benchmark needs from the run (the server, the agent's workflow bundle built once, ids unique
// to this run, the interrupt check) and what it gives back (its tables, and its figures for the results file).
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

/** A part's results: printed as text, saved under the part's name in the results file. */
export interface BenchPart {
  text: string;
  json: Record<string, unknown>;
}
