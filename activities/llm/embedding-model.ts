// EMBEDDING_MODEL (`provider:model`, e.g. openai:text-embedding-3-small): memories and the turn's prompt as vectors
// through the AI SDK's embedMany, for recall by meaning beside full-text (memory/memory-store.ts ranks by both; memory/vectors.ts keeps them). The
// key and endpoint are found as a model's are (LLM_KEY/LLM_BASE_URL for LLM_MODEL's provider, else the provider's own
// variables). Anthropic serves no embedding models; the scripted model has none.
import { embedMany, type EmbeddingModel } from 'ai';
import { credentials, parseModel, type LlmConfig } from './model';
import type { Embedder } from '../../memory/vectors';

/** One call's limit: a recall waits for the prompt's vector before the model is asked. */
const EMBED_TIMEOUT_MS = 10_000;

export function createEmbedder(spec: string, config: LlmConfig): Embedder {
  const model = embeddingModel(spec, config);
  return {
    model: spec,
    async embed(texts) {
      if (!texts.length) return [];
      const { embeddings } = await embedMany({
        model,
        values: texts,
        // The store falls back to full-text, and a write's vector is made later (backfill): no retries here.
        maxRetries: 0,
        abortSignal: AbortSignal.timeout(EMBED_TIMEOUT_MS),
      });
      return embeddings;
    },
  };
}

function embeddingModel(spec: string, config: LlmConfig): EmbeddingModel {
  const { provider, modelId } = parseModel(spec, 'EMBEDDING_MODEL');
  const { key, baseUrl, keyWords, hint } = credentials(provider, config);
  const needKey = (): string => {
    if (!key) throw new Error(`${keyWords} is not set: EMBEDDING_MODEL=${spec} needs an API key${hint}.`);
    return key;
  };
  /* eslint-disable @typescript-eslint/no-require-imports */
  switch (provider) {
    case 'openai':
    case 'openai-chat': {
      const { createOpenAI } = require('@ai-sdk/openai') as typeof import('@ai-sdk/openai');
      return createOpenAI({ apiKey: needKey(), baseURL: baseUrl }).embeddingModel(modelId);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = require('@ai-sdk/google') as typeof import('@ai-sdk/google');
      return createGoogleGenerativeAI({ apiKey: needKey(), baseURL: baseUrl }).embeddingModel(modelId);
    }
    case 'openai-compatible': {
      if (!baseUrl)
        throw new Error(
          `EMBEDDING_MODEL=${spec} needs the endpoint: LLM_BASE_URL, with LLM_MODEL of the openai-compatible provider.`,
        );
      const { createOpenAICompatible } =
        require('@ai-sdk/openai-compatible') as typeof import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({ name: 'openai-compatible', baseURL: baseUrl, apiKey: key }).embeddingModel(
        modelId,
      );
    }
    case 'anthropic':
    case 'scripted':
      throw new Error(
        `EMBEDDING_MODEL: the ${provider} provider has no embedding models; use openai:, google: or openai-compatible:.`,
      );
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}
