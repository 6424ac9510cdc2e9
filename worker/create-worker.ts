// The composition root: registries, the model and the activities wired into one Temporal worker.
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { createModel, type ResolvedModel } from '../activities/llm/model';
import { loadGoals, type GoalRegistry } from '../goals/registry';
import type { MockStore } from '../tools/define-tool';
import { loadNativeTools, type ToolRegistry } from '../tools/registry';
import { McpDiscovery } from '../mcp/catalog';
import { McpPool } from '../mcp/pool';
import { RegistryFile } from '../mcp/registry';
import { PROJECT_ROOT, type WorkerSettings } from './settings';

export const WORKFLOWS_PATH = require.resolve(path.join(__dirname, '..', 'workflows'));

export interface AgentWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  config: WorkerSettings;
  /** Overrides the model from the settings (tests inject scripted models). */
  model?: ResolvedModel;
  /** A pre-built bundle, so test files bundle workflow code once. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  store?: MockStore;
  goals?: GoalRegistry;
  tools?: ToolRegistry;
}

export interface AgentWorker {
  worker: Worker;
  model: ResolvedModel;
  goals: GoalRegistry;
  tools: ToolRegistry;
  store: MockStore;
  discovery: McpDiscovery;
  /** Closes the MCP sessions; call after worker.run() has returned. */
  close(): Promise<void>;
}

export async function createAgentWorker(opts: AgentWorkerOptions): Promise<AgentWorker> {
  const tools = opts.tools ?? loadNativeTools();
  const goals = opts.goals ?? loadGoals();
  // Refuse to start on a goal naming a tool that does not exist, rather than fail mid-conversation.
  goals.checkTools((name) => tools.get(name) !== undefined);
  if (!goals.get(opts.config.defaultGoalId)) {
    throw new Error(`AGENT_GOAL "${opts.config.defaultGoalId}" is not a goal. Known goals: ${goals.ids().join(', ')}.`);
  }
  const model = opts.model ?? createModel(opts.config.llm);
  const store: MockStore = opts.store ?? new Map();
  const pool = new McpPool({ baseDir: PROJECT_ROOT, onToolsChanged: () => discovery.invalidate() });
  const discovery: McpDiscovery = new McpDiscovery({ registry: new RegistryFile(opts.config.mcpEndpointsFile), pool });
  const worker = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace ?? 'default',
    taskQueue: opts.config.taskQueue,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities({
      settings: opts.config.settings,
      goals,
      tools,
      discovery,
      mcp: { discovery, pool },
      llm: { model: model.model, provider: model.provider },
      toolContext: { store, now: () => new Date() },
    }),
  });
  return { worker, model, goals, tools, store, discovery, close: () => pool.closeAll() };
}
