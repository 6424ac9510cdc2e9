// The peer of issue 44: the agent a user writes in twenty lines with Temporal's own AI SDK integration
// (@temporalio/ai-sdk, the version for our `ai` major: bench/package.json). One update per turn calls generateText with
// the temporal provider (each model call an activity) and one activity tool; the conversation's messages are kept in
// the workflow. No validation, approvals, hooks, streaming or telemetry: what ours is measured against.
import { temporalProvider } from '@temporalio/ai-sdk';
import { condition, defineSignal, defineUpdate, proxyActivities, setHandler } from '@temporalio/workflow';
import { generateText, stepCountIs, tool, type ModelMessage } from 'ai';
import { z } from 'zod';
import type * as activities from './activities';

const { currentPto } = proxyActivities<typeof activities>({ startToCloseTimeout: '1 minute' });

export const peerTurn = defineUpdate<string, [string]>('turn');
export const peerEnd = defineSignal('end');

export async function peerAgent(): Promise<void> {
  const messages: ModelMessage[] = [];
  let ended = false;
  setHandler(peerTurn, async (prompt) => {
    messages.push({ role: 'user', content: prompt });
    const result = await generateText({
      model: temporalProvider.languageModel('bench'),
      system: 'You are an HR assistant. Look balances up with CurrentPTO.',
      messages,
      tools: {
        CurrentPTO: tool({
          description: 'Look up how many hours of paid time off an employee has left today.',
          inputSchema: z.object({ email: z.string().describe('Employee email address') }),
          execute: (input) => currentPto(input),
        }),
      },
      stopWhen: stepCountIs(5),
    });
    messages.push(...result.response.messages);
    return result.text;
  });
  setHandler(peerEnd, () => void (ended = true));
  await condition(() => ended);
}
