// Recordings for the replay test (called by record-histories.ts): a conversation that keeps a memory (Remember:
// checked, approved, written) and recalls it on the next turn; and one whose goal proposes memories when it ends
// (memory.extract: the patch's marker, then the proposeMemories activity).
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { AgentClient } from '../client/agent-client';
import { startWorker, testSettings } from '../testkit/temporal';
import type { ScriptInput } from '../activities/llm/scripted-model';
import { extractGoalsDir, extractScript, NOTES_GOAL } from './fixtures/memory-extract';
import { REMEMBER_RULES } from './fixtures/memory-script';

type Save = (name: string, handle: WorkflowHandle, runId?: string) => Promise<void>;

const script: ScriptInput = {
  rules: [
    ...REMEMBER_RULES,
    { afterTool: 'Remember', outcome: 'ok', reply: { text: 'Noted.' } },
    { user: 'that is all', reply: { text: 'Bye.', toolCalls: [{ tool: 'CompleteGoal', args: {} }] } },
  ],
};

export async function recordMemory(env: TestWorkflowEnvironment, save: Save, wanted: (name: string) => boolean) {
  if (wanted('memory-remember')) await recordRemember(env, save);
  if (wanted('memory-extract')) await recordExtraction(env, save);
}

async function recordRemember(env: TestWorkflowEnvironment, save: Save) {
  const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
  const worker = await startWorker(env, { script, settings });
  try {
    const agents = new AgentClient(env.client, settings.taskQueue);
    const { id } = await agents.start('goal_hr_pto', 'replay-memory', 'ada');
    await agents.say(id, 'remember that I prefer Fridays off');
    await agents.confirm(id, { approve: true });
    await agents.say(id, 'that is all');
    const handle = env.client.workflow.getHandle(id);
    await handle.result();
    await save('memory-remember', handle);
  } finally {
    await worker.stop();
  }
}

async function recordExtraction(env: TestWorkflowEnvironment, save: Save) {
  const settings = testSettings({ VALIDATE_PROMPTS: 'false', GOALS_DIR: extractGoalsDir() });
  const worker = await startWorker(env, { script: extractScript, settings });
  try {
    const agents = new AgentClient(env.client, settings.taskQueue);
    const { id } = await agents.start(NOTES_GOAL.id, 'replay-memory-extract', 'ada');
    await agents.say(id, 'I prefer Fridays off');
    await agents.end(id);
    await save('memory-extract', env.client.workflow.getHandle(id));
  } finally {
    await worker.stop();
  }
}
