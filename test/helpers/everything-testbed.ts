// A real dev server, a worker with the recording scripted model, and the API, with the MCP reference server
// (server-everything) registered over stdio (`ev`) and over Streamable HTTP (`evh`), and our fx demo (tools alone):
// what the MCP content and resources-and-prompts tests share.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { readApiSettings } from '../../api/api-settings';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { ScriptInput } from '../../activities/llm/scripted-model';
import { runCli } from './cli';
import { everythingStdio, startEverythingHttp } from '../../testkit/everything-server';
import { recording } from '../../testkit/recording-model';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

export interface EverythingTestbed {
  env: TestWorkflowEnvironment;
  taskQueue: string;
  /** The registry file: a second worker can serve the same endpoints. */
  registry: string;
  model: ReturnType<typeof recording>['model'];
  agents: AgentClient;
  cli(args: string[]): ReturnType<typeof runCli>;
  /** An API request: its status and JSON body. */
  call(method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function everythingTestbed(script: ScriptInput): Promise<EverythingTestbed> {
  const registry = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-everything-')), 'mcp_endpoints.json');
  const [env, http] = await Promise.all([startTemporal(), startEverythingHttp()]);
  writeFileSync(
    registry,
    JSON.stringify({
      mcpServers: {
        ev: everythingStdio(),
        evh: { url: http.url, requireApproval: 'destructive' },
        fx: { command: process.execPath, args: ['--require', 'tsx/cjs', 'demo/fx.ts'] },
      },
    }),
  );
  const settings = testSettings({
    AGENT_GOAL: 'goal_general',
    VALIDATE_PROMPTS: 'false',
    MCP_ENDPOINTS_FILE: registry,
  });
  const model = recording(script);
  const bus = createStreamBus();
  const worker = await startWorker(env, { model, settings });
  const agents = new AgentClient(env.client, settings.taskQueue);
  const api: RunningApi = await startApi({
    agents,
    bus,
    defaultGoal: 'goal_general',
    settings: { ...readApiSettings({}), port: 0, host: '127.0.0.1', keys: null },
  });
  return {
    env,
    taskQueue: settings.taskQueue,
    registry,
    model: model.model,
    agents,
    cli: (args) => runCli(args, { TEMPORAL_ADDRESS: env.address, TASK_QUEUE: settings.taskQueue }),
    async call(method, route, body) {
      const res = await fetch(`${api.url}${route}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async close() {
      await api.close();
      await worker.stop();
      await http.end();
      await bus.close();
      await env.teardown();
    },
  };
}
