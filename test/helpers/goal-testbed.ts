// The set-up the per-goal tests share: a real dev server, a worker on the test's script, and a worker on the
// shipped offline demo script (config/scripted-model.json) as `npm start` runs it, with the demo fx MCP server.
// Mock data is reseeded per test.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadScript, type ScriptInput } from '../../activities/llm/scripted-model';
import { FX_STDIO } from '../fixtures/scripts';
import { history, startConversation, toolOutcomes } from './conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const DEMO_SCRIPT = path.join(__dirname, '..', '..', 'config', 'scripted-model.json');

type TestWorker = Awaited<ReturnType<typeof startWorker>>;

export interface GoalTestbed {
  env: TestWorkflowEnvironment;
  worker: TestWorker;
  demo: TestWorker;
}

/** `now`: the workers' clock, for a test that runs the demo on another day (the machine's by default). */
export function goalTestbed(script: ScriptInput, opts: { now?: () => Date } = {}) {
  const bed = {} as GoalTestbed;
  beforeAll(async () => {
    bed.env = await startTemporal();
    bed.worker = await startWorker(bed.env, { script, now: opts.now });
    const registry = path.join(mkdtempSync(path.join(tmpdir(), 'demo-mcp-')), 'mcp_endpoints.json');
    writeFileSync(registry, JSON.stringify({ mcpServers: { fx: FX_STDIO } }));
    bed.demo = await startWorker(bed.env, {
      script: loadScript(DEMO_SCRIPT),
      settings: testSettings({ AGENT_GOAL: 'goal_choose_agent', MCP_ENDPOINTS_FILE: registry }),
      now: opts.now,
    });
  });
  afterAll(async () => {
    await bed.worker?.stop();
    await bed.demo?.stop();
    await bed.env?.teardown();
  });
  beforeEach(() => {
    bed.worker.store.clear();
    bed.demo.store.clear();
  });
  return {
    bed,
    start: (goalId: string) => startConversation(bed.env.client, bed.worker.worker.options.taskQueue, { goalId }),
    steps: async (handle: Parameters<typeof history>[0], tool?: string) =>
      toolOutcomes(await history(handle), tool).map((m) => [m.call.tool, m.outcome.status]),
  };
}
