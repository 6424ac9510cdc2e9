// The composition root: registries, the model and the activities wired into one Temporal worker.
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { createToolDispatcher } from '../activities/tool-activities';
import { createModel, type ResolvedModel } from '../activities/llm/model';
import { loadGoals, type GoalRegistry } from '../goals/registry';
import type { MockStore } from '../tools/define-tool';
import { loadNativeTools, ToolRegistry } from '../tools/registry';
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
  const goals = opts.goals ?? loadGoals({ folder: opts.config.goalsFolder, toolExists: (name) => tools.get(name) !== undefined });
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
      llm: { model: model.model, provider: model.provider, config: opts.config.llm },
      toolContext: { store, now: () => new Date() },
    }),
  });
  return { worker, model, goals, tools, store, discovery, close: () => pool.closeAll() };
}

/**
 * A worker serving only the native tools routed to `taskQueue` (tools that declare `taskQueue`), as a team that
 * owns those tools would run it: no workflows, no LLM.
 */
export async function createToolWorker(opts: { connection: NativeConnection; namespace?: string; taskQueue: string; store?: MockStore; tools?: ToolRegistry }) {
  const all = opts.tools ?? loadNativeTools();
  const mine = new ToolRegistry(all.all().filter((t) => t.taskQueue === opts.taskQueue));
  if (mine.names().length === 0) throw new Error(`No native tool declares taskQueue "${opts.taskQueue}".`);
  const store: MockStore = opts.store ?? new Map();
  const worker = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace ?? 'default',
    taskQueue: opts.taskQueue,
    activities: { default: createToolDispatcher(mine, { store, now: () => new Date() }) },
  });
  return { worker, tools: mine, store };
}
