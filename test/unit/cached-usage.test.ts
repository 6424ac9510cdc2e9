// Cached input tokens through every place usage goes: read from the AI SDK's usage (v6's inputTokenDetails, or the
// older cachedInputTokens), added up across calls and runs, and shown by the CLI.
import { usageOf } from '../../activities/llm/sdk-usage';
import { formatSpend } from '../../client/terminal-format';
import { addUsage, ZERO_USAGE } from '../../core/usage';

describe('cached input tokens', () => {
  it("are read from the SDK's usage: inputTokenDetails.cacheReadTokens first, else cachedInputTokens", () => {
    expect(
      usageOf({
        inputTokens: 2006,
        outputTokens: 300,
        totalTokens: 2306,
        inputTokenDetails: { noCacheTokens: 86, cacheReadTokens: 1920, cacheWriteTokens: 0 },
      }),
    ).toEqual({ inputTokens: 2006, outputTokens: 300, totalTokens: 2306, cachedInputTokens: 1920 });
    expect(usageOf({ inputTokens: 10, outputTokens: 1, cachedInputTokens: 4 })).toEqual({
      inputTokens: 10,
      outputTokens: 1,
      totalTokens: 11,
      cachedInputTokens: 4,
    });
    // None read from the cache: nothing to say.
    expect(usageOf({ inputTokens: 10, outputTokens: 1, inputTokenDetails: { cacheReadTokens: 0 } })).toEqual({
      inputTokens: 10,
      outputTokens: 1,
      totalTokens: 11,
    });
  });

  it('add up, and stay absent while no call reported any', () => {
    const plain = { inputTokens: 100, outputTokens: 10, totalTokens: 110, costUsd: 0.001 };
    expect(addUsage(ZERO_USAGE, plain)).toEqual(plain);
    const cached = { inputTokens: 2006, outputTokens: 300, totalTokens: 2306, cachedInputTokens: 1920, costUsd: 0.01 };
    expect(addUsage(addUsage(plain, cached), cached)).toEqual({
      inputTokens: 4112,
      outputTokens: 610,
      totalTokens: 4722,
      cachedInputTokens: 3840,
      costUsd: 0.021,
    });
  });

  it('are shown beside the tokens they are part of', () => {
    expect(
      formatSpend({
        inputTokens: 2006,
        outputTokens: 300,
        totalTokens: 2306,
        cachedInputTokens: 1920,
        costUsd: 0.0123,
      }),
    ).toBe('2,306 tokens (1,920 cached), $0.0123');
    expect(formatSpend({ inputTokens: 10, outputTokens: 1, totalTokens: 11 })).toBe('11 tokens');
  });
});
