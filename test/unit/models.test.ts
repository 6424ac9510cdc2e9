// Which model answers (workflows/decider/models.ts): the chain a failing call walks, where a call starts in it, and
// how long each model may keep failing — pure decisions, replayed the same way from history and the workflow clock.
import { Models, ownModel, switchNote } from '../../workflows/decider/models';
import type { Goal, Settings } from '../../core/types';

const goal = (settings?: Goal['settings']): Goal => ({ id: 'g', settings }) as Goal;
const settings = (s: Partial<Settings> = {}): Settings =>
  ({
    model: 'openai:gpt-5',
    fallbackModels: ['anthropic:claude-haiku-4-5', 'google:gemini-2.5-flash'],
    ...s,
  }) as Settings;

describe('Models', () => {
  it("walks the goal's own model, then LLM_FALLBACK_MODELS, none repeated; the own model is asked with no choice", () => {
    const chain = new Models().chain(goal(), settings({ fallbackModels: ['openai:gpt-5', 'a:x', 'a:x', 'b:y'] }));
    expect(chain).toEqual([
      { name: 'openai:gpt-5', choice: {} },
      { name: 'a:x', choice: { model: 'a:x', fallbackFrom: 'openai:gpt-5' } },
      { name: 'b:y', choice: { model: 'b:y', fallbackFrom: 'openai:gpt-5' } },
    ]);
  });

  it("a goal's own model and fallbacks win over the worker's", () => {
    const chain = new Models().chain(goal({ model: 'a:own', fallbackModels: ['b:mine'] }), settings());
    expect(chain.map((l) => l.name)).toEqual(['a:own', 'b:mine']);
    expect(ownModel(goal(), settings({ model: undefined }))).toBe('the default model');
  });

  it('stays on the fallback until LLM_FALLBACK_COOLDOWN has passed, then asks the own model again', () => {
    const models = new Models();
    const s = settings({ fallbackCooldownSeconds: 60 });
    const chain = models.chain(goal(), s);
    expect(models.start(chain, s, 0)).toBe(0);
    models.switchTo(chain[2]!, 1_000);
    expect(models.inUse()).toEqual({ model: 'google:gemini-2.5-flash', since: 1_000 });
    expect(models.start(chain, s, 60_999)).toBe(2);
    expect(models.start(chain, s, 61_000)).toBe(0);
    expect(models.inUse()).toBeNull();
  });

  it('a fallback the goal no longer lists (the agent changed) is dropped', () => {
    const models = new Models({ fallback: { model: 'anthropic:claude-haiku-4-5', since: 0 } });
    expect(models.start(models.chain(goal({ fallbackModels: ['x:y'] }), settings()), settings(), 1)).toBe(0);
    expect(models.inUse()).toBeNull();
  });

  it('gives each model but the last LLM_FALLBACK_AFTER (never more than MODEL_GIVE_UP), the last MODEL_GIVE_UP', () => {
    const models = new Models();
    const s = settings({ fallbackAfterSeconds: 20, modelGiveUpSeconds: 120 });
    const chain = models.chain(goal(), s);
    expect(chain.map((_, at) => models.giveUpSeconds(chain, at, s))).toEqual([20, 20, 120]);
    expect(models.giveUpSeconds(chain, 0, { ...s, modelGiveUpSeconds: 10 })).toBe(10);
    const alone = models.chain(goal(), settings({ fallbackModels: [] }));
    expect(models.giveUpSeconds(alone, 0, s)).toBe(120);
  });

  it('says what failed and what answers instead', () => {
    expect(switchNote('a:x', 'b:y', 'The a API failed (HTTP 529).')).toBe(
      'a:x kept failing (The a API failed (HTTP 529)); b:y answers instead.',
    );
  });
});
