import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLlmActivities } from '../../activities/llm/llm-activities';
import { ScriptedModel } from '../../activities/llm/scripted-model';
import { loadGoals } from '../../goals/goal-registry';

describe('per-goal model override', () => {
  const base = loadGoals().resolve('goal_hr_pto');
  const file = path.join(tmpdir(), `goal-model-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ rules: [], fallback: { text: 'from the goal model' } }));
  const llm = createLlmActivities({
    model: new ScriptedModel({ rules: [], fallback: { text: 'from the worker model' } }),
    provider: 'scripted',
    config: {},
  });
  const plan = (goal: typeof base) =>
    llm.planTurn({ goal, tools: [], messages: [{ kind: 'user', text: 'hi', promptId: 1 }], summary: '', agents: [] });

  it('uses the worker model unless the goal names one', async () => {
    expect((await plan(base)).text).toBe('from the worker model');
    expect((await plan({ ...base, settings: { model: `scripted:${file}`, temperature: 0.2 } })).text).toBe(
      'from the goal model',
    );
  });

  it('fails non-retryably, naming the goal, when the goal model is misconfigured', async () => {
    await expect(plan({ ...base, settings: { model: 'openai:gpt-4o-mini' } })).rejects.toMatchObject({
      nonRetryable: true,
      type: 'LlmMisconfigured',
      message: expect.stringMatching(
        /Goal "goal_hr_pto" names the model "openai:gpt-4o-mini": LLM_KEY or OPENAI_API_KEY is not set/,
      ),
    });
  });
});
