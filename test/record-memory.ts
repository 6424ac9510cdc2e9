// A recording of a conversation that keeps a memory (Remember: checked, approved, written) and recalls it on the
// next turn, for the replay test (called by record-histories.ts).
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { AgentClient } from '../client/agent-client';
import { startWorker, testSettings } from '../testkit/temporal';
import type { ScriptInput } from '../activities/llm/scripted-model';

type Save = (name: string, handle: WorkflowHandle, runId?: string) => Promise<void>;

const script: ScriptInput = {
  rules: [
    { user: '^Greet the user', reply: { text: 'Hello.' } },
    {
      user: 'remember that I prefer (\\w+) off',
      reply: { toolCalls: [{ tool: 'Remember', args: { fact: 'prefers {{1}} off', tags: ['pto'] } }] },
    },
    { afterTool: 'Remember', outcome: 'ok', reply: { text: 'Noted.' } },
    { user: 'that is all', reply: { text: 'Bye.', toolCalls: [{ tool: 'CompleteGoal', args: {} }] } },
  ],
};

export async function recordMemory(env: TestWorkflowEnvironment, save: Save, wanted: (name: string) => boolean) {
  if (!wanted('memory-remember')) return;
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
