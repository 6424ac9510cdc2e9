// Recall by meaning in a running worker (a real dev server and worker, EMBEDDING_MODEL through the AI SDK's OpenAI
// provider at a local embeddings server): a conversation asking in words no memory has is shown the memory that means
// it, first; with the embedding model down, the turn still runs and recalls by words.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { AgentClient } from '../../client/agent-client';
import { recording } from '../../testkit/recording-model';
import { startFakeEmbeddings, type FakeEmbeddings } from '../../testkit/fake-embeddings';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

describe('recall by meaning in a running worker (EMBEDDING_MODEL)', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let agents: AgentClient;
  let embeddings: FakeEmbeddings;
  const model = recording({ rules: [{ user: '.', reply: { text: 'Noted.' } }] });

  beforeAll(async () => {
    env = await startTemporal();
    embeddings = await startFakeEmbeddings();
    const settings = testSettings({
      VALIDATE_PROMPTS: 'false',
      EMBEDDING_MODEL: 'openai:text-embedding-3-small',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: embeddings.baseUrl,
    });
    worker = await startWorker(env, { model, settings });
    agents = new AgentClient(env.client, settings.taskQueue);
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await embeddings?.close();
    await env?.teardown();
  });

  /** The memories block of the model's latest request, one line a memory. */
  const recalled = () =>
    (model.model.prompts.at(-1) as LanguageModelV3Prompt)
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('- [mem_'));

  it('shows the memory that means what the user asks first, and recalls by words while the model is down', async () => {
    for (const text of ['manager is Grace Hopper', 'likes an aisle seat', 'prefers Fridays off'])
      await agents.memory({ owner: 'ada', op: 'add', text, via: 'api' });
    const { id } = await agents.start('goal_hr_pto', 'embeddings-1', 'ada');
    await agents.say(id, 'who is my boss?');
    expect(recalled()[0]).toContain('"manager is Grace Hopper"');
    expect(embeddings.inputs).toContain('who is my boss?');

    embeddings.failing = true;
    try {
      await agents.say(id, 'book my aisle seat');
      expect(recalled()[0]).toContain('"likes an aisle seat"');
    } finally {
      embeddings.failing = false;
    }
  }, 60_000);
});
