// A model call's usage as the AI SDK reports it, in our terms: input counts every prompt token, cachedInputTokens
// those read from the provider's prompt cache (v6 reports them as inputTokenDetails.cacheReadTokens).
import type { LanguageModelUsage } from 'ai';
import type { Usage } from '../../core/types';

export type SdkUsage = Partial<
  Pick<LanguageModelUsage, 'inputTokens' | 'outputTokens' | 'totalTokens' | 'cachedInputTokens'>
> & {
  inputTokenDetails?: Partial<LanguageModelUsage['inputTokenDetails']>;
};

export function usageOf(u: SdkUsage): Usage {
  const inputTokens = u.inputTokens ?? 0;
  const outputTokens = u.outputTokens ?? 0;
  const cached = u.inputTokenDetails?.cacheReadTokens ?? u.cachedInputTokens;
  return {
    inputTokens,
    outputTokens,
    totalTokens: u.totalTokens ?? inputTokens + outputTokens,
    ...(cached ? { cachedInputTokens: cached } : {}),
  };
}
