// A model that answers every call `ms` later (a stream's first part too), as a remote model would; which model
// answers may depend on the call.
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';

export function delayed(
  ms: number,
  answer: LanguageModelV3 | ((call: LanguageModelV3CallOptions) => LanguageModelV3),
): LanguageModelV3 {
  const pick = typeof answer === 'function' ? answer : () => answer;
  const wait = () => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());
  return {
    specificationVersion: 'v3',
    provider: 'bench-latency',
    modelId: `latency-${ms}`,
    supportedUrls: {},
    doGenerate: async (o) => (await wait(), pick(o).doGenerate(o)),
    doStream: async (o) => (await wait(), pick(o).doStream(o)),
  };
}
