// The models under test (--model, repeatable; else LLM_MODEL; else the offline scripted model), and the model that
// plays a scenario's user. A real model is built by the worker from its settings, as in production (LLM_MODEL with its
// key); the scripted model is built here, with a scenario's own rules before its script's.
//
// Keys as the worker reads them (docs/models.md): LLM_KEY and LLM_BASE_URL are LLM_MODEL's provider's, so they go only to
// a model under test of that provider (with LLM_MODEL unset, of the first real --model's); any other model takes its
// provider's own variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY), as a goal's model does.
import path from 'node:path';
import type { LanguageModel } from 'ai';
import {
  createModel,
  DEFAULT_SCRIPT,
  keySettings,
  PROVIDER_VARIABLES,
  type ResolvedModel,
} from '../activities/llm/model';
import { loadScript, ScriptedModel, type Script } from '../activities/llm/scripted-model';
import type { Scenario } from './scenario';
import { scriptedUserModel } from './simulated-user';

export interface ModelUnderTest {
  /** As the report names it: `scripted` (or `scripted:<file>`), else `provider:model`, its worker's LLM_MODEL. */
  label: string;
  /** The scripted model's script; absent for a real model. */
  script?: Script;
  /** LLM_KEY and LLM_BASE_URL when they are this model's provider's. */
  keys: { LLM_KEY?: string; LLM_BASE_URL?: string };
}

export function modelsUnderTest(names: string[], env: NodeJS.ProcessEnv): ModelUnderTest[] {
  const wanted = names.length ? names : [env.LLM_MODEL || 'scripted'];
  const keysOwner = env.LLM_MODEL || wanted.find((m) => !isScripted(m));
  return wanted.map((label) => {
    if (label === 'scripted') return { label, script: loadScript(DEFAULT_SCRIPT), keys: {} };
    if (isScripted(label)) return { label, script: loadScript(path.resolve(label.slice(9))), keys: {} };
    if (!/^[a-z-]+:.+/.test(label))
      throw new Error(`--model ${label}: name a model as provider:model (e.g. openai:gpt-4o-mini), or scripted`);
    const keys =
      keysOwner && sameKeys(label, keysOwner) ? { LLM_KEY: env.LLM_KEY, LLM_BASE_URL: env.LLM_BASE_URL } : {};
    return { label, keys };
  });
}

const isScripted = (label: string) => label === 'scripted' || label.startsWith('scripted:');
const providerOf = (label: string) => label.slice(0, label.indexOf(':'));

/** Whether two models take the same key: one provider, or providers sharing their variables (openai, openai-chat). */
function sameKeys(a: string, b: string): boolean {
  const [pa, pb] = [providerOf(a), providerOf(b)];
  // keySettings names a provider's own variable ('LLM_KEY or OPENAI_API_KEY'); one without shares with no other.
  return pa === pb || (keySettings(pa) !== 'LLM_KEY' && keySettings(pa) === keySettings(pb));
}

/** The scripted model for a scenario: its rules first, then the script's; its routes first; its fallback if any. */
export function scriptedFor(model: ModelUnderTest, scenario: Scenario): ResolvedModel | undefined {
  if (!model.script) return undefined;
  const own = scenario.script ?? {};
  const script: Script = {
    rules: [...(own.rules ?? []), ...model.script.rules],
    routes: [...(own.routes ?? []), ...model.script.routes],
    fallback: own.fallback ?? model.script.fallback,
  };
  return {
    model: new ScriptedModel(script, model.label),
    provider: 'scripted',
    modelId: model.label,
    description: `scripted model for the scenario ${scenario.name}`,
  };
}

/**
 * Who plays the user of a scenario with `user`: offline, its script; else EVAL_USER_MODEL (with EVAL_USER_KEY and
 * EVAL_USER_BASE_URL, or its provider's own variable), or else the model under test itself, with its worker's keys.
 */
export function userModelFor(model: ModelUnderTest, scenario: Scenario, env: NodeJS.ProcessEnv): LanguageModel {
  if (!scenario.user) throw new Error(`${scenario.name} has scripted turns, not a played user`);
  if (model.script) return scriptedUserModel(scenario.user);
  const providerEnv = Object.fromEntries(PROVIDER_VARIABLES.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  const own = env.EVAL_USER_MODEL;
  const config = own
    ? { model: own, key: env.EVAL_USER_KEY || undefined, baseUrl: env.EVAL_USER_BASE_URL || undefined }
    : { model: model.label, key: model.keys.LLM_KEY || undefined, baseUrl: model.keys.LLM_BASE_URL || undefined };
  return createModel({ ...config, providerEnv }).model;
}
