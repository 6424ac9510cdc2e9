// Recordings of model faults for the replay test (called by record-histories.ts): a primary model that starts
// answering 529, the switch to its fallback (PATCHES.modelFallback) and the next turn on the fallback; and a model
// that sends tool-call arguments that are not JSON, answered invalid_input and corrected in the same turn.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { createModel } from '../activities/llm/model';
import { endChatSignal } from '../core/messages';
import {
  completion,
  httpError,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  toolResults,
} from '../testkit/fake-chat-completions';
import { startWorker, testSettings } from '../testkit/temporal';
import { say, startConversation, waitForUser } from './helpers/conversation';

type Save = (name: string, handle: WorkflowHandle) => Promise<void>;

export async function recordModelFaults(
  env: TestWorkflowEnvironment,
  save: Save,
  wanted: (name: string) => boolean,
): Promise<void> {
  let primaryDown = false;
  const model = await startFakeChatCompletions((body) => {
    if (!body.tools) return completion({ text: '{"valid": true}' });
    const prompt = lastUserText(body);
    if (body.model === 'primary' && primaryDown) return httpError(529, 'Overloaded');
    if (prompt.startsWith('Greet')) return completion({ text: 'Hi.' });
    if (!prompt.includes('balance')) return completion({ text: `${body.model}: ${prompt}` });
    if (!isAfterTool(body)) return completion({ toolCalls: [{ name: 'CurrentPTO', args: '{"email": "ada@exa' }] });
    const outcome = JSON.parse(toolResults(body).at(-1)!.content) as { status: string; result?: { hoursLeft: number } };
    if (outcome.status === 'invalid_input')
      return completion({ toolCalls: [{ name: 'CurrentPTO', args: { email: 'ada@example.com' } }] });
    return completion({ text: `You have ${outcome.result?.hoursLeft} hours left.` });
  });
  const settings = testSettings({
    LLM_MODEL: 'openai-compatible:primary',
    LLM_BASE_URL: model.baseUrl,
    LLM_KEY: 'k',
    LLM_FALLBACK_MODELS: 'openai-compatible:backup',
    LLM_FALLBACK_AFTER: '5',
  });
  const worker = await startWorker(env, { model: createModel(settings.llm), settings });
  try {
    if (wanted('model-fallback')) {
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_hr_pto' },
        'replay-model-fallback',
      );
      await waitForUser(handle);
      primaryDown = true;
      await say(handle, 'are you there?');
      await say(handle, 'still there?');
      await handle.signal(endChatSignal);
      await handle.result();
      await save('model-fallback', handle);
      primaryDown = false;
    }
    if (wanted('malformed-tool-call')) {
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_hr_pto' },
        'replay-malformed-tool-call',
      );
      await say(handle, 'what is my balance for ada@example.com?');
      await handle.signal(endChatSignal);
      await handle.result();
      await save('malformed-tool-call', handle);
    }
  } finally {
    await worker.stop();
    await model.close();
  }
}
