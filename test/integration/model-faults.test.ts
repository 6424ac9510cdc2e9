// A model that sends malformed tool-call arguments, on a real dev server and worker with the model reached over HTTP
// (a local Chat Completions server): the call goes back to the model at once as invalid_input, in words that quote
// what it sent, and the model corrects itself in the same turn — where the turn used to retry the model call for
// minutes and end with "Please try again".
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createModel } from '../../activities/llm/model';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import {
  completion,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  toolResults,
  type FakeChatCompletions,
} from '../../testkit/fake-chat-completions';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

describe('model faults', () => {
  let env: TestWorkflowEnvironment;
  let model: FakeChatCompletions;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    env = await startTemporal();
    model = await startFakeChatCompletions((body) => {
      if (!body.tools) return completion({ text: '{"valid": true}' });
      if (lastUserText(body).startsWith('Greet')) return completion({ text: 'Hi.' });
      if (!isAfterTool(body))
        // Cut off mid-way: not JSON.
        return completion({ toolCalls: [{ name: 'CurrentPTO', args: '{"email": "ada@exa' }] });
      const [result] = toolResults(body).slice(-1);
      const outcome = JSON.parse(result!.content) as { status: string; result?: { hoursLeft: number } };
      if (outcome.status === 'invalid_input')
        return completion({ toolCalls: [{ name: 'CurrentPTO', args: { email: 'ada@example.com' } }] });
      return completion({ text: `You have ${outcome.result?.hoursLeft} hours left.` });
    });
    worker = await startWorker(env, {
      model: createModel({ model: 'openai-compatible:test-model', baseUrl: model.baseUrl, key: 'k' }),
      settings: testSettings({ VALIDATE_PROMPTS: 'false' }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await model?.close();
    await env?.teardown();
  });

  it('malformed tool-call arguments go back to the model at once, and it corrects them in the same turn', async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_hr_pto' });
    const began = Date.now();
    const reply = await say(handle, 'what is my balance for ada@example.com?');
    expect(reply.reply).toBe('You have 104 hours left.');
    expect(Date.now() - began).toBeLessThan(10_000); // no model-call retries
    const outcomes = toolOutcomes(await history(handle), 'CurrentPTO').map((m) => m.outcome);
    expect(outcomes).toEqual([
      {
        status: 'invalid_input',
        problems: [
          'The arguments you sent for CurrentPTO are not a JSON object: {"email": "ada@exa. Call it again with its arguments as one JSON object that fits its schema.',
        ],
        missing: [],
      },
      expect.objectContaining({ status: 'ok' }),
    ]);
    // Three plan requests: the bad call, the corrected one, the answer — each answered on its first attempt.
    const plans = model.requests.filter((r) => r.body.tools && !lastUserText(r.body).startsWith('Greet'));
    expect(plans).toHaveLength(3);
  });
});
