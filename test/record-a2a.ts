// A recording of the orchestrator asking a remote A2A agent (PATCHES.a2aDelegates), for the replay test (called by
// record-histories.ts): a remote agent built with the A2A SDK (its own process) is registered as `helper`; one turn
// asks it to echo, the next answers its question. The goal is resolved again before each turn (its delegates), and
// each call is one askRemoteAgent activity.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { AgentClient } from '../client/agent-client';
import { startWorker, testSettings } from '../testkit/temporal';
import { a2aScript, startRemoteAgent } from './fixtures/a2a';

type Save = (name: string, handle: WorkflowHandle, runId?: string) => Promise<void>;

export async function recordA2aDelegate(
  env: TestWorkflowEnvironment,
  save: Save,
  wanted: (name: string) => boolean,
): Promise<void> {
  if (!wanted('a2a-delegate')) return;
  const remote = await startRemoteAgent();
  const registry = path.join(mkdtempSync(path.join(tmpdir(), 'a2a-record-')), 'mcp.json');
  writeFileSync(registry, JSON.stringify({ mcpServers: {}, a2aAgents: { helper: { card: remote.ready[1] } } }));
  const settings = testSettings({
    AGENT_GOAL: 'goal_orchestrator',
    VALIDATE_PROMPTS: 'false',
    MCP_ENDPOINTS_FILE: registry,
  });
  const worker = await startWorker(env, { script: a2aScript, settings });
  try {
    const agents = new AgentClient(env.client, settings.taskQueue);
    const { id } = await agents.start('goal_orchestrator', 'replay-a2a-delegate');
    await agents.say(id, 'remote hello');
    await agents.say(id, 'remote ask which colour?');
    await agents.answer(id, { answer: { action: 'accept', content: { answer: 'blue' } } });
    const handle = env.client.workflow.getHandle(id);
    await save('a2a-delegate', handle);
    await handle.terminate();
  } finally {
    await worker.stop();
    await remote.end('SIGTERM');
  }
}
