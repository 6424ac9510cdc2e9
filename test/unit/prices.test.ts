// The price table: defaults for the providers we support, PRICES_FILE entries over them, provider:* for any model
// of a provider, errors that name the file and entry; and the budget and metrics settings.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_PRICES_FILE, loadPrices } from '../../activities/llm/prices';
import { readWorkerSettings } from '../../worker/worker-settings';

const dir = mkdtempSync(path.join(tmpdir(), 'prices-'));
function file(name: string, content: unknown): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
}

describe('price table', () => {
  it('prices the providers we support by default, the scripted model at nothing', () => {
    const prices = loadPrices();
    for (const model of ['openai:gpt-4o-mini', 'anthropic:claude-sonnet-4-5', 'google:gemini-2.5-flash'])
      expect(prices.priceOf(model)).toBeDefined();
    expect(
      prices.priced('openai:gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 500_000, totalTokens: 1_500_000 })
        .costUsd,
    ).toBeCloseTo(0.15 + 0.3, 8);
    expect(
      prices.priced('scripted:/any/script.json', { inputTokens: 10, outputTokens: 10, totalTokens: 20 }).costUsd,
    ).toBe(0);
    // A model the table does not know: tokens only.
    expect(prices.priced('openai-compatible:llama3.1', { inputTokens: 10, outputTokens: 10, totalTokens: 20 })).toEqual(
      { inputTokens: 10, outputTokens: 10, totalTokens: 20 },
    );
  });

  it("prices a model on OpenAI's Chat Completions API (openai-chat:) as on the Responses API, unless it has its own", () => {
    expect(loadPrices().priceOf('openai-chat:gpt-4o-mini')).toEqual(loadPrices().priceOf('openai:gpt-4o-mini'));
    const own = loadPrices(file('chat.json', { 'openai-chat:gpt-4o-mini': { input: 9, output: 9 } }));
    expect(own.priceOf('openai-chat:gpt-4o-mini')).toEqual({ input: 9, output: 9 });
    expect(own.priceOf('openai-chat:no-such-model')).toBeUndefined();
  });

  it('PRICES_FILE entries override and add; provider:* covers the rest of a provider', () => {
    const prices = loadPrices(
      file('ours.json', {
        'openai:gpt-4o-mini': { input: 1, output: 2 },
        'openai-compatible:*': { input: 0.5, output: 0.5 },
      }),
    );
    expect(prices.priceOf('openai:gpt-4o-mini')).toEqual({ input: 1, output: 2 });
    expect(prices.priceOf('openai:gpt-4o')).toEqual({ input: 2.5, cachedInput: 1.25, output: 10 });
    expect(
      prices.priced('openai-compatible:llama3.1', { inputTokens: 2_000_000, outputTokens: 0, totalTokens: 2_000_000 })
        .costUsd,
    ).toBe(1);
  });

  it('prices input read from the prompt cache at cachedInput: uncached × input + cached × cachedInput + output × output', () => {
    const prices = loadPrices(
      file('cached.json', {
        'anthropic:claude-x': { input: 3, cachedInput: 0.3, output: 15 },
        'openai-compatible:*': { input: 1, output: 2 },
      }),
    );
    const usage = { inputTokens: 1_000_000, cachedInputTokens: 800_000, outputTokens: 100_000, totalTokens: 1_100_000 };
    // 200k uncached at $3, 800k cached at $0.30, 100k out at $15.
    expect(prices.priced('anthropic:claude-x', usage).costUsd).toBeCloseTo(0.6 + 0.24 + 1.5, 8);
    // No cachedInput price: cached input costs what input costs.
    expect(prices.priced('openai-compatible:llama', usage).costUsd).toBeCloseTo(1 + 0.2, 8);
    // Every model the default table lists (but the free scripted one) has a cached price below its input price.
    const table = JSON.parse(readFileSync(DEFAULT_PRICES_FILE, 'utf8')) as Record<string, unknown>;
    const listed = Object.keys(table).filter((m) => !m.startsWith('$') && !m.startsWith('scripted:'));
    expect(listed.length).toBeGreaterThan(10);
    for (const model of listed) {
      const price = loadPrices().priceOf(model)!;
      expect([model, price.cachedInput! < price.input]).toEqual([model, true]);
    }
    expect(() => loadPrices(file('bad-cached.json', { 'openai:x': { input: 1, output: 1, cachedInput: -1 } }))).toThrow(
      /"openai:x" must be \{"input": dollars, "output": dollars, "cachedInput"\?: dollars\}/,
    );
  });

  it('refuses a bad table naming the file and the entry', () => {
    expect(() => loadPrices(path.join(dir, 'missing.json'))).toThrow(/PRICES_FILE .*missing\.json: ENOENT/);
    expect(() => loadPrices(file('broken.json', '{'))).toThrow(/PRICES_FILE .*broken\.json/);
    expect(() => loadPrices(file('list.json', []))).toThrow(/must be an object of "provider:model"/);
    expect(() => loadPrices(file('noprovider.json', { 'gpt-4o': { input: 1, output: 1 } }))).toThrow(
      /"gpt-4o" must be provider:model/,
    );
    expect(() => loadPrices(file('negative.json', { 'openai:x': { input: -1, output: 1 } }))).toThrow(
      /"openai:x" must be \{"input": dollars/,
    );
  });
});

describe('budget and metrics settings', () => {
  it('reads budgets, metrics and the price file; none by default', () => {
    const plain = readWorkerSettings({});
    expect(plain.conversation.budget).toBeUndefined();
    expect(plain.metrics).toBeUndefined();
    const s = readWorkerSettings({
      CONVERSATION_TOKEN_BUDGET: '200000',
      CONVERSATION_COST_BUDGET: '$0.50',
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      PRICES_FILE: 'p.json',
    });
    expect(s.conversation.budget).toEqual({ tokens: 200_000, costUsd: 0.5 });
    expect(s.metrics).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(s.pricesFile).toBe(path.resolve('p.json'));
    expect(readWorkerSettings({ CONVERSATION_COST_BUDGET: '2' }).conversation.budget).toEqual({ costUsd: 2 });
  });

  it('names the setting when a value is wrong', () => {
    expect(() => readWorkerSettings({ CONVERSATION_COST_BUDGET: 'lots' })).toThrow(
      /CONVERSATION_COST_BUDGET must be an amount of US dollars above 0, e.g. 0.50, got "lots"/,
    );
    expect(() => readWorkerSettings({ CONVERSATION_COST_BUDGET: '0' })).toThrow(/CONVERSATION_COST_BUDGET/);
    expect(() => readWorkerSettings({ CONVERSATION_TOKEN_BUDGET: '1.5' })).toThrow(
      /CONVERSATION_TOKEN_BUDGET must be a whole number/,
    );
    expect(() => readWorkerSettings({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be a whole number/);
  });
});
