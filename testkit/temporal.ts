// A real Temporal dev server (the CLI's start-dev) per test file, and workers wired like production.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { StreamBus } from '../stream/bus';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Runtime, DefaultLogger, type WorkflowBundleOption } from '@temporalio/worker';
import { ScriptedModel, type ScriptInput } from '../activities/llm/scripted-model';
import type { ResolvedModel } from '../activities/llm/model';
import type { MockStore } from '../tools/define-tool';
import type { ToolRegistry } from '../tools/tool-registry';
import type { Hook } from '../core/hooks';
import { createAgentWorker, type AgentWorker } from '../worker/create-worker';
import { cachedWorkflowBundle } from '../worker/bundle-cache';
import { readWorkerSettings, type WorkerSettings } from '../worker/worker-settings';
import { dynamicConfigFlags } from '../worker/dev-server';
import { DEV_SERVER_SEARCH_ATTRIBUTES } from '../worker/register-search-attributes';
import { findTemporalCli } from '../worker/pypi-binaries';
import { closedConnectionGuard } from './closed-connection-guard';

let runtimeInstalled = false;

function quietRuntime(): void {
  if (runtimeInstalled) return;
  // Keep test output readable: only warnings and errors from the SDK.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  runtimeInstalled = true;
}

export async function startTemporal(): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  // Without a CLI (no Python to install it), the SDK downloads one: that needs the internet, and says so if it fails.
  const cli = findTemporalCli();
  const guard = closedConnectionGuard();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: cli ? { type: 'existing-path', path: cli } : { type: 'cached-download' },
      extraArgs: ['--log-level', 'error', ...DEV_SERVER_SEARCH_ATTRIBUTES, ...dynamicConfigFlags()],
    },
    plugins: [guard.plugin],
  });
  const teardown = env.teardown.bind(env);
  env.teardown = () => {
    guard.close();
    return teardown();
  };
  return env;
}

let bundle: Promise<WorkflowBundleOption> | undefined;
/** The workflow code as Jest's global set-up bundled it for the whole run, else as a worker from source gets it. */
export function workflowBundle(): Promise<WorkflowBundleOption> {
  const prebuilt = process.env.TEST_WORKFLOW_BUNDLE;
  bundle ??= prebuilt ? Promise.resolve({ codePath: prebuilt }) : cachedWorkflowBundle(false);
  return bundle;
}

export function scripted(script: ScriptInput): ResolvedModel {
  return { model: new ScriptedModel(script), provider: 'scripted', modelId: 'test', description: 'test script' };
}

let queueSeq = 0;
export function testSettings(env: Record<string, string> = {}): WorkerSettings {
  // No MCP endpoints unless a test brings its own registry. Built from `env` alone, never process.env, so a
  // developer's STRIPE_API_KEY cannot send the tests' invoices to Stripe.
  const config = readWorkerSettings({
    AGENT_GOAL: 'goal_hr_pto',
    MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
    // Made tools go to a folder of this worker's own, never the project's config/tools.
    TOOLS_DIR: mkdtempSync(path.join(tmpdir(), 'made-tools-')),
    // Files and results kept whole go to a folder of this worker's own, never the project's data/.
    BLOB_DIR: mkdtempSync(path.join(tmpdir(), 'blobs-')),
    // Memories too (opened only when a test keeps one).
    MEMORY_DIR: path.join(mkdtempSync(path.join(tmpdir(), 'memory-')), 'pglite'),
    ...env,
  } as NodeJS.ProcessEnv);
  const taskQueue = `test-${process.pid}-${++queueSeq}`;
  // A deployment per task queue, as a worker's default is, unless the test names one.
  const versioning = config.versioning && { ...config.versioning, deployment: env.WORKER_DEPLOYMENT ?? taskQueue };
  return { ...config, taskQueue, versioning };
}

export async function startWorker(
  env: TestWorkflowEnvironment,
  opts: {
    script?: ScriptInput;
    model?: ResolvedModel;
    settings?: WorkerSettings;
    store?: MockStore;
    tools?: ToolRegistry;
    streamBus?: StreamBus;
    /** Hooks in code (createAgentWorker's `hooks`): they run before those HOOKS names. */
    hooks?: Hook[];
    /** The worker's clock (createAgentWorker's `now`): the machine's unless a test runs on another day. */
    now?: () => Date;
  },
): Promise<AgentWorker & { run: Promise<void>; stop(): Promise<void> }> {
  const agent = await createAgentWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    settings: opts.settings ?? testSettings(),
    model: opts.model ?? scripted(opts.script ?? { rules: [] }),
    workflowBundle: await workflowBundle(),
    store: opts.store,
    tools: opts.tools,
    streamBus: opts.streamBus,
    hooks: opts.hooks,
    now: opts.now,
  });
  const run = agent.worker.run();
  return {
    ...agent,
    run,
    async stop() {
      if (agent.worker.getState() === 'RUNNING') agent.worker.shutdown();
      await run;
      await agent.close();
    },
  };
}
