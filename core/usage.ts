// What model calls spend, added up: tokens always (cached input tokens when a provider reported them), dollars when
// the worker has a price for the model.
import type { Usage } from './types';

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  if (a.cachedInputTokens !== undefined || b.cachedInputTokens !== undefined)
    sum.cachedInputTokens = (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0);
  if (a.costUsd !== undefined || b.costUsd !== undefined) sum.costUsd = roundUsd((a.costUsd ?? 0) + (b.costUsd ?? 0));
  return sum;
}

/** Dollars rounded to a millionth of a cent: a call's cost and sums of many read cleanly. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e8) / 1e8;
}
