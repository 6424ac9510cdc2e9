// The proposeMemories activity (the scripted model, PGlite in a folder of its own, no server): the model is shown the
// user's and the agent's words under the extraction rules, never a tool's result; its facts become the owner's
// proposed memories; run again for the same conversation (a retry, a replay's activity), it finds them and asks no
// model; a transcript where the user said nothing, or a worker without memory, asks nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createLlmActivities } from '../../activities/llm/llm-activities';
import type { ProposeMemoriesRequest, ProposedMemories } from '../../core/activity-types';
import type { ChatMessage } from '../../core/types';
import { LazyMemoryStore, readMemorySettings } from '../../memory/open-store';
import { recording } from '../../testkit/recording-model';
import { goal } from '../helpers/conversation-unit';

const model = recording({
  rules: [
    {
      task: 'extract',
      user: 'User: .*I prefer (\\w+) off',
      reply: { json: { facts: ['prefers {{1}} off', 'Prefers {{1}} off', 'works in the Lisbon office'] } },
    },
  ],
});

const call = { id: 'c1', tool: 'CurrentPTO', args: { email: 'ada@example.com' } };
const talk: ChatMessage[] = [
  { kind: 'user', text: 'Greet the user', promptId: 0, starter: true },
  { kind: 'agent', text: 'Hello.', toolCalls: [] },
  { kind: 'user', text: 'I prefer Fridays off; my balance?', promptId: 1 },
  { kind: 'agent', text: '', toolCalls: [call] },
  { kind: 'tool', call, outcome: { status: 'ok', result: { days: 12, manager: 'Ada Lovelace' } } },
  { kind: 'agent', text: 'You have 12 days.', toolCalls: [] },
];

describe('proposeMemories', () => {
  const memory = new LazyMemoryStore(
    readMemorySettings({ MEMORY_DIR: path.join(mkdtempSync(path.join(tmpdir(), 'propose-')), 'pglite') }, tmpdir()),
  );
  const llm = createLlmActivities({
    model: model.model,
    provider: 'scripted',
    memory: { store: memory, recallTokens: 500 },
  });
  afterAll(() => memory.close());

  const run = (workflowId: string, messages: ChatMessage[], attempt = 1, activities = llm, runId = 'run-1') =>
    new MockActivityEnvironment(
      { workflowExecution: { workflowId, runId }, activityId: '9', attempt, scheduleToCloseTimeoutMs: 0 },
      { logger: new DefaultLogger('ERROR') },
    ).run(activities.proposeMemories, {
      goal,
      owner: 'ada',
      messages,
    } satisfies ProposeMemoriesRequest) as Promise<ProposedMemories>;

  it("proposes the facts of the user's words, once; run again, it finds them and asks no model", async () => {
    const first = await run('conv-1', talk);
    expect(first.proposed).toHaveLength(2);
    expect(first.usage.inputTokens).toBeGreaterThan(0);
    const shown = model.model.prompts.at(-1) as LanguageModelV3Prompt;
    const words = JSON.stringify(shown);
    expect(words).toContain('Take a fact only from what the user said about themselves');
    expect(words).toContain('User: I prefer Fridays off; my balance?');
    expect(words).toContain('Agent: You have 12 days.');
    // Nothing from the tool: its result, its call, the starter prompt.
    expect(words).not.toMatch(/Ada Lovelace|CurrentPTO|Greet the user/);

    const asked = model.model.prompts.length;
    const again = await run('conv-1', talk, 2);
    expect(again).toEqual({ proposed: first.proposed, known: 0, usage: expect.objectContaining({ totalTokens: 0 }) });
    expect(model.model.prompts).toHaveLength(asked);

    const store = await memory.store();
    const kept = await store.list('ada');
    expect(kept.map((m) => [m.text, m.proposed]).sort()).toEqual([
      ['prefers Fridays off', true],
      ['works in the Lisbon office', true],
    ]);
    // Another conversation saying the same, or a later one under the same id: the model is asked (its key is new),
    // but what the owner has already is not proposed twice.
    expect(await run('conv-2', talk)).toMatchObject({ proposed: [], known: 2 });
    expect(await run('conv-1', talk, 1, llm, 'run-2')).toMatchObject({ proposed: [], known: 2 });
    expect(model.model.prompts).toHaveLength(asked + 2);
  });

  it('asks nothing when the user said nothing, or the worker keeps no memories', async () => {
    const asked = model.model.prompts.length;
    expect((await run('conv-3', talk.slice(0, 2))).proposed).toEqual([]);
    const noMemory = createLlmActivities({ model: model.model, provider: 'scripted' });
    expect((await run('conv-4', talk, 1, noMemory)).proposed).toEqual([]);
    expect(model.model.prompts).toHaveLength(asked);
  });
});
