// A recording with hooks for the replay test (called by record-histories.ts): the shipped examples on
// (HOOKS=pii-redaction,topic-guardrail) and VALIDATE_PROMPTS: a prompt rewritten before any model saw it (checked and
// planned again in its new words), a tool result redacted, and a prompt blocked with no model call.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { endChatSignal } from '../core/messages';
import type { ScriptInput } from '../activities/llm/scripted-model';
import { startWorker, testSettings } from '../testkit/temporal';
import { say, startConversation } from './helpers/conversation';

type Save = (name: string, handle: WorkflowHandle) => Promise<void>;

export const ordersScript: ScriptInput = {
  rules: [
    { user: '^Greet', reply: { text: 'Hi! Which order?' } },
    { task: 'validate', user: '.', reply: { json: { valid: true } } },
    { user: '(ORD-\\d+)', reply: { toolCalls: [{ tool: 'GetOrder', args: { orderId: '{{1}}' } }] } },
    {
      afterTool: 'GetOrder',
      outcome: 'ok',
      reply: { text: 'It is {{result.status}}; we will write to {{result.email}}.' },
    },
  ],
};

export async function recordHooks(
  env: TestWorkflowEnvironment,
  save: Save,
  wanted: (name: string) => boolean,
): Promise<void> {
  if (!wanted('hooks')) return;
  const settings = testSettings({
    AGENT_GOAL: 'goal_order_status',
    VALIDATE_PROMPTS: 'true',
    HOOKS: 'pii-redaction,topic-guardrail',
  });
  const worker = await startWorker(env, { script: ordersScript, settings });
  try {
    const { handle } = await startConversation(
      env.client,
      settings.taskQueue,
      { goalId: 'goal_order_status' },
      'replay-hooks',
    );
    await say(handle, 'Where is ORD-1001? Mail ada@example.com');
    await say(handle, 'What dosage of ibuprofen is safe?');
    await handle.signal(endChatSignal);
    await handle.result();
    await save('hooks', handle);
  } finally {
    await worker.stop();
  }
}
