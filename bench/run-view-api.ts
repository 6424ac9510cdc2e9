// The HTTP API alone in a process of its own for the run-view benchmark, so that its CPU time is the views' cost and
// not the worker's. Its Temporal connection counts every request it makes, by method, as it starts and as it ends
// (long polls still open = started − finished); the run watches' own counters come from startApi's `runs`. The worker
// runs in the bench, so no text travels between them (an in-memory bus): the feed looks at conversations by its
// polls alone, not also when a model call's text ends, as it does beside a worker (npm start).
import path from 'node:path';
import {
  Client,
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  type ConnectionOptions,
} from '@temporalio/client';
import { DEFAULT_BODY_LIMIT } from '../api/api-settings';
import type { RunWatchCounters } from '../api/run-watch';
import { startApi, type RunningApi } from '../api/server';
import { AgentClient } from '../client/agent-client';
import { temporalTarget } from '../runtime/connection';
import { MemoryStreamBus } from '../stream';
import { rssBytes } from './proc';
import { serveParent, startChild } from './run-view-child';
import { externalServerSettings } from './server';

/** Requests the API made to Temporal, by gRPC method. */
export type CallCounts = Record<string, { started: number; finished: number; failed: Record<string, number> }>;

export interface ApiReading {
  counters: RunWatchCounters;
  calls: CallCounts;
  /** The process's CPU time so far (user + system), ms. */
  cpuMs: number;
  rssBytes: number;
  /**
   * Promises the API let fail with nobody waiting (they would have ended the process: Node's default), and the first
   * few messages. Caught here so that the benchmark can go on and say so.
   */
  unhandled: { count: number; first: string[] };
}

type Request = { type: 'start' } | { type: 'read' };
type Reply = { url: string } | ApiReading;

export interface RunViewApi {
  url: string;
  read(): Promise<ApiReading>;
  stop(): Promise<void>;
}

export async function startRunViewApi(opts: {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  goalId: string;
}): Promise<RunViewApi> {
  // The bench's own server: none of the caller's Temporal or API settings (keys, TLS, profiles) apply to it.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !/^(TEMPORAL_|API_|CORS_)/.test(e[0]),
    ),
  );
  const child = startChild<Request, Reply>(__filename, 'the run-view API process', {
    ...inherited,
    ...externalServerSettings(),
    TEMPORAL_ADDRESS: opts.temporalAddress,
    TEMPORAL_NAMESPACE: opts.namespace,
    TASK_QUEUE: opts.taskQueue,
    AGENT_GOAL: opts.goalId,
  });
  try {
    const { url } = (await child.ask({ type: 'start' })) as { url: string };
    return { url, read: () => child.ask({ type: 'read' }) as Promise<ApiReading>, stop: () => child.stop() };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

type Interceptor = NonNullable<ConnectionOptions['interceptors']>[number];

/** Counts each request as it starts and as its status comes back (inside the retries: every attempt counts). */
function counting(calls: CallCounts): Interceptor {
  return (options, nextCall) => {
    const method = path.basename(options.method_definition.path);
    const count = (calls[method] ??= { started: 0, finished: 0, failed: {} });
    count.started++;
    const call = nextCall(options);
    const start = call.start.bind(call);
    call.start = (metadata, listener) =>
      start(
        metadata,
        Object.assign(Object.create(listener ?? {}) as NonNullable<typeof listener>, {
          onReceiveStatus: (status: Parameters<NonNullable<NonNullable<typeof listener>['onReceiveStatus']>>[0]) => {
            count.finished++;
            if (status.code) count.failed[status.code] = (count.failed[status.code] ?? 0) + 1;
            listener?.onReceiveStatus?.(status);
          },
        }),
      );
    // What nextCall made is the InterceptingCall the type wants; its declared type is the interface.
    return call as ReturnType<Interceptor>;
  };
}

function runChild(): void {
  const calls: CallCounts = {};
  const unhandled = { count: 0, first: [] as string[] };
  process.on('unhandledRejection', (err) => {
    if (++unhandled.count <= 3)
      unhandled.first.push(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  });
  let api: RunningApi | undefined;
  let connection: Connection | undefined;
  serveParent<Request, Reply>(
    async (req) => {
      if (req.type === 'start') {
        const target = temporalTarget(process.env);
        connection = await Connection.connect({
          ...target.connectionOptions,
          interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions()), counting(calls)],
        });
        const client = new Client({ connection, namespace: target.namespace });
        api = await startApi({
          agents: new AgentClient(client, process.env.TASK_QUEUE!),
          bus: new MemoryStreamBus(),
          defaultGoal: process.env.AGENT_GOAL!,
          settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: DEFAULT_BODY_LIMIT, corsOrigins: [] },
        });
        return { url: api.url };
      }
      const { user, system } = process.cpuUsage();
      return {
        counters: { ...api!.runs!.counters },
        calls: structuredClone(calls),
        cpuMs: (user + system) / 1000,
        rssBytes: rssBytes(process.pid),
        unhandled: structuredClone(unhandled),
      };
    },
    async () => {
      await api?.close();
      await connection?.close();
    },
  );
}

if (require.main === module) runChild();
