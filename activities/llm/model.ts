// LLM_MODEL as provider:model → an AI SDK language model. Configuration errors name the setting to fix.
// Keys: LLM_KEY (and LLM_BASE_URL) belong to LLM_MODEL's provider; a goal's or a fallback's model of another provider
// takes its provider's own variable, as the AI SDK's providers name them (OPENAI_API_KEY, ANTHROPIC_API_KEY, …),
// so one provider's key is never sent to another.
import path from 'node:path';
import type { LanguageModel } from 'ai';
import { PROJECT_ROOT } from '../../tools/project-root';
import { loadScript, ScriptedModel } from './scripted-model';

/** `openai` is OpenAI's Responses API (the AI SDK's default for OpenAI); `openai-chat` its Chat Completions API. */
export const PROVIDERS = ['openai', 'openai-chat', 'anthropic', 'google', 'openai-compatible', 'scripted'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The variables the AI SDK's providers read their key and endpoint from, read once by the worker's settings. */
export const PROVIDER_VARIABLES = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'GOOGLE_GENERATIVE_AI_API_KEY',
] as const;
export type ProviderVariable = (typeof PROVIDER_VARIABLES)[number];

/** Each provider's own key and endpoint variables; none for providers with no key of their own. */
const VARIABLES: Partial<Record<Provider, { key: ProviderVariable; baseUrl?: ProviderVariable }>> = {
  openai: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  'openai-chat': { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
  google: { key: 'GOOGLE_GENERATIVE_AI_API_KEY' },
};

export interface LlmConfig {
  /** `provider:model`, e.g. `openai:gpt-4o-mini`, `openai-compatible:llama3.1`, `scripted:path/to/script.json`. */
  model?: string;
  /** LLM_MODEL as set: the model whose provider `key` and `baseUrl` are for. Defaults to `model`. */
  llmModel?: string;
  /** LLM_KEY. */
  key?: string;
  /** LLM_BASE_URL. */
  baseUrl?: string;
  /** The providers' own variables (OPENAI_API_KEY, …): a model of a provider other than LLM_MODEL's uses these. */
  providerEnv?: Partial<Record<ProviderVariable, string>>;
  /** One model call's limit (MODEL_TIMEOUT): a hang is reported as the model's timeout, then retried. */
  timeoutSeconds?: number;
}

export const DEFAULT_SCRIPT = path.join(PROJECT_ROOT, 'config', 'scripted-model.json');

export interface ResolvedModel {
  model: LanguageModel;
  provider: Provider;
  modelId: string;
  /** One line for start-up logs, e.g. that the offline scripted model is in use and why. */
  description: string;
}

/** The settings that give `provider` its key, in words for a message: `LLM_KEY or OPENAI_API_KEY`. */
export function keySettings(provider: string): string {
  const own = VARIABLES[provider as Provider]?.key;
  return own ? `LLM_KEY or ${own}` : 'LLM_KEY';
}

export function createModel(config: LlmConfig): ResolvedModel {
  if (!config.model) {
    if (config.key)
      throw new Error('LLM_KEY is set but LLM_MODEL is not: set LLM_MODEL as provider:model, e.g. openai:gpt-4o-mini.');
    return scripted(
      DEFAULT_SCRIPT,
      'no LLM_MODEL/LLM_KEY configured, so the offline scripted model answers (demo mode)',
    );
  }
  const { provider, modelId } = parseModel(config.model);
  const { key, baseUrl, keyWords, hint } = credentials(provider, config);
  const needKey = (): string => {
    if (!key)
      throw new Error(`${keyWords} is not set: the ${provider} provider needs an API key (${config.model})${hint}.`);
    return key;
  };
  const described = (model: LanguageModel): ResolvedModel => ({
    model,
    provider,
    modelId,
    description: `LLM ${provider}:${modelId}${baseUrl ? ` at ${baseUrl}` : ''}`,
  });
  // Each provider's package is loaded when a model of it is made: together ~150 ms that a worker, the API and every
  // test file would pay at start for providers they never use.
  /* eslint-disable @typescript-eslint/no-require-imports */
  switch (provider) {
    case 'openai': {
      const { createOpenAI } = require('@ai-sdk/openai') as typeof import('@ai-sdk/openai');
      return described(createOpenAI({ apiKey: needKey(), baseURL: baseUrl }).responses(modelId));
    }
    case 'openai-chat': {
      const { createOpenAI } = require('@ai-sdk/openai') as typeof import('@ai-sdk/openai');
      return described(createOpenAI({ apiKey: needKey(), baseURL: baseUrl }).chat(modelId));
    }
    case 'anthropic': {
      const { createAnthropic } = require('@ai-sdk/anthropic') as typeof import('@ai-sdk/anthropic');
      return described(createAnthropic({ apiKey: needKey(), baseURL: baseUrl })(modelId));
    }
    case 'google': {
      const { createGoogleGenerativeAI } = require('@ai-sdk/google') as typeof import('@ai-sdk/google');
      return described(createGoogleGenerativeAI({ apiKey: needKey(), baseURL: baseUrl })(modelId));
    }
    case 'openai-compatible': {
      if (!baseUrl)
        throw new Error(
          'LLM_BASE_URL is not set: openai-compatible needs the endpoint, e.g. http://localhost:11434/v1 ' +
            '(LLM_BASE_URL is for LLM_MODEL: an openai-compatible model beside another LLM_MODEL has no endpoint).',
        );
      // Local servers (Ollama, LM Studio) often need no key.
      const { createOpenAICompatible } =
        require('@ai-sdk/openai-compatible') as typeof import('@ai-sdk/openai-compatible');
      return described(
        createOpenAICompatible({ name: 'openai-compatible', baseURL: baseUrl, apiKey: key, includeUsage: true })(
          modelId,
        ),
      );
    }
    case 'scripted':
      return scripted(path.resolve(modelId), `scripted model from ${modelId}`);
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** `provider:model`, as `setting` names it (LLM_MODEL, EMBEDDING_MODEL). */
export function parseModel(model: string, setting = 'LLM_MODEL'): { provider: Provider; modelId: string } {
  const sep = model.indexOf(':');
  if (sep <= 0 || sep === model.length - 1)
    throw new Error(`${setting} must be provider:model (providers: ${PROVIDERS.join(', ')}); got "${model}".`);
  const provider = model.slice(0, sep);
  if (!(PROVIDERS as readonly string[]).includes(provider))
    throw new Error(`${setting} names the unknown provider "${provider}"; use one of ${PROVIDERS.join(', ')}.`);
  return { provider: provider as Provider, modelId: model.slice(sep + 1) };
}

/**
 * The key and endpoint for a model of `provider`: LLM_KEY and LLM_BASE_URL when LLM_MODEL's provider shares its
 * variables (openai and openai-chat do), else — and for a key LLM_KEY leaves unset — the provider's own variables.
 */
export function credentials(
  provider: Provider,
  config: LlmConfig,
): { key?: string; baseUrl?: string; keyWords: string; hint: string } {
  const own = VARIABLES[provider];
  const env = config.providerEnv ?? {};
  const ownKey = own ? env[own.key] : undefined;
  const ownBaseUrl = own?.baseUrl ? env[own.baseUrl] : undefined;
  const llmModel = config.llmModel ?? config.model;
  const primary = llmModel ? parseProvider(llmModel) : undefined;
  const sameVariables =
    primary === provider || (own !== undefined && primary !== undefined && VARIABLES[primary]?.key === own.key);
  if (sameVariables)
    return {
      key: config.key ?? ownKey,
      baseUrl: config.baseUrl ?? ownBaseUrl,
      keyWords: keySettings(provider),
      hint: '',
    };
  return {
    key: ownKey,
    baseUrl: ownBaseUrl,
    keyWords: own?.key ?? 'LLM_KEY',
    hint: primary ? `; LLM_KEY is for LLM_MODEL's provider, ${primary}` : '',
  };
}

function parseProvider(model: string): Provider | undefined {
  const provider = model.slice(0, Math.max(0, model.indexOf(':')));
  return (PROVIDERS as readonly string[]).includes(provider) ? (provider as Provider) : undefined;
}

function scripted(file: string, description: string): ResolvedModel {
  return { model: new ScriptedModel(loadScript(file), file), provider: 'scripted', modelId: file, description };
}
