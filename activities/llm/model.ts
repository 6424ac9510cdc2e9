// LLM_MODEL as provider:model → an AI SDK language model. Configuration errors name the setting to fix.
import path from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { PROJECT_ROOT } from '../../tools/project-root';
import { loadScript, ScriptedModel } from './scripted-model';

export const PROVIDERS = ['openai', 'anthropic', 'google', 'openai-compatible', 'scripted'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface LlmConfig {
  /** `provider:model`, e.g. `openai:gpt-4o-mini`, `openai-compatible:llama3.1`, `scripted:path/to/script.json`. */
  model?: string;
  key?: string;
  baseUrl?: string;
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

export function createModel(config: LlmConfig): ResolvedModel {
  if (!config.model) {
    if (config.key)
      throw new Error('LLM_KEY is set but LLM_MODEL is not: set LLM_MODEL as provider:model, e.g. openai:gpt-4o-mini.');
    return scripted(
      DEFAULT_SCRIPT,
      'no LLM_MODEL/LLM_KEY configured, so the offline scripted model answers (demo mode)',
    );
  }
  const sep = config.model.indexOf(':');
  if (sep <= 0 || sep === config.model.length - 1) {
    throw new Error(`LLM_MODEL must be provider:model (providers: ${PROVIDERS.join(', ')}); got "${config.model}".`);
  }
  const provider = config.model.slice(0, sep) as Provider;
  const modelId = config.model.slice(sep + 1);
  const needKey = (): string => {
    if (!config.key)
      throw new Error(`LLM_KEY is not set: the ${provider} provider needs an API key (LLM_MODEL=${config.model}).`);
    return config.key;
  };
  const described = (model: LanguageModel): ResolvedModel => ({
    model,
    provider,
    modelId,
    description: `LLM ${provider}:${modelId}${config.baseUrl ? ` at ${config.baseUrl}` : ''}`,
  });
  switch (provider) {
    case 'openai':
      return described(createOpenAI({ apiKey: needKey(), baseURL: config.baseUrl })(modelId));
    case 'anthropic':
      return described(createAnthropic({ apiKey: needKey(), baseURL: config.baseUrl })(modelId));
    case 'google':
      return described(createGoogleGenerativeAI({ apiKey: needKey(), baseURL: config.baseUrl })(modelId));
    case 'openai-compatible':
      if (!config.baseUrl)
        throw new Error(
          'LLM_BASE_URL is not set: openai-compatible needs the endpoint, e.g. http://localhost:11434/v1.',
        );
      // Local servers (Ollama, LM Studio) often need no key.
      return described(
        createOpenAICompatible({
          name: 'openai-compatible',
          baseURL: config.baseUrl,
          apiKey: config.key,
          includeUsage: true,
        })(modelId),
      );
    case 'scripted':
      return scripted(path.resolve(modelId), `scripted model from ${modelId}`);
    default:
      throw new Error(`LLM_MODEL names the unknown provider "${provider}"; use one of ${PROVIDERS.join(', ')}.`);
  }
}

function scripted(file: string, description: string): ResolvedModel {
  return { model: new ScriptedModel(loadScript(file), file), provider: 'scripted', modelId: file, description };
}
