// The agent worker a scenario runs on, built as production builds it (createAgentWorker), on a task queue of its own,
// with demo data of its own (cleared before each run). Its settings are the defaults plus the model's settings from the
// environment (LLM_*, MODEL_*, the providers' keys, PRICES_FILE; LLM_KEY only for its provider: models.ts), the hooks
// (HOOKS, HOOKS_DIR, HOOK_*) and the scenario's env: nothing else of the shell's, so a developer's SHOW_CONFIRM=false
// or STRIPE_API_KEY cannot change what a scenario means. No MCP servers unless the scenario names a registry
// (MCP_ENDPOINTS_FILE); made tools, files and tokens in a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentClient } from '../client/agent-client';
import { MockStore } from '../tools/define-tool';
import { workflowBundle } from '../testkit/temporal';
import { createAgentWorker } from '../worker/create-worker';
import { readWorkerSettings } from '../worker/worker-settings';
import { scriptedFor, type ModelUnderTest } from './models';
import type { Scenario } from './scenario';
import type { EvalServer } from './server';

/** What of the shell's environment reaches an eval worker: the model's settings and the hooks around it, nothing else. */
const MODEL_SETTING = /^(LLM_|MODEL_|OPENAI_|ANTHROPIC_|GOOGLE_GENERATIVE_AI_|PRICES_FILE$|HOOKS$|HOOKS_DIR$|HOOK_)/;

export interface EvalWorker {
  agents: AgentClient;
  store: MockStore;
  stop(): Promise<void>;
}

let seq = 0;

export async function startEvalWorker(
  server: EvalServer,
  scenario: Scenario,
  model: ModelUnderTest,
  runId: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<EvalWorker> {
  const dir = mkdtempSync(path.join(tmpdir(), 'agent-eval-'));
  const fromShell = Object.fromEntries(
    Object.entries(env).filter(([k]) => MODEL_SETTING.test(k) && k !== 'LLM_KEY' && k !== 'LLM_BASE_URL'),
  );
  const settings = readWorkerSettings({
    ...fromShell,
    ...(model.script ? { LLM_MODEL: undefined } : { LLM_MODEL: model.label, ...model.keys }),
    AGENT_GOAL: scenario.agent,
    MCP_ENDPOINTS_FILE: path.join(dir, 'no-mcp-endpoints.json'),
    TOOLS_DIR: path.join(dir, 'tools'),
    BLOB_DIR: path.join(dir, 'blobs'),
    DATA_DIR: path.join(dir, 'data'),
    ...scenario.env,
    TASK_QUEUE: `eval-${runId}-${++seq}`,
  });
  const store = new MockStore();
  const agent = await createAgentWorker({
    connection: server.connection,
    namespace: server.namespace,
    settings,
    model: scriptedFor(model, scenario),
    workflowBundle: await workflowBundle(),
    store,
  });
  const running = agent.worker.run();
  return {
    agents: new AgentClient(server.client, settings.taskQueue, { maxWaitMs: 10_000 }),
    store,
    async stop() {
      if (agent.worker.getState() === 'RUNNING') agent.worker.shutdown();
      await running;
      await agent.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
