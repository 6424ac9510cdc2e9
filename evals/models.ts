// The models under test (--model, repeatable; else LLM_MODEL; else the offline scripted model), and the model that
// plays a scenario's user. A real model is built by the worker from its settings, as in production (LLM_MODEL with
// LLM_KEY, LLM_BASE_URL…); the scripted model is built here, with a scenario's own rules before its script's.
import path from 'node:path';
import type { LanguageModel } from 'ai';
import { createModel, DEFAULT_SCRIPT, type ResolvedModel } from '../activities/llm/model';
import { loadScript, ScriptedModel, type Script } from '../activities/llm/scripted-model';
import type { Scenario } from './scenario';
import { scriptedUserModel } from './simulated-user';

export interface ModelUnderTest {
  /** As the report names it: `scripted` (or `scripted:<file>`), else `provider:model`. */
  label: string;
  /** The scripted model's script; absent for a real model. */
  script?: Script;
}

export function modelsUnderTest(names: string[], env: NodeJS.ProcessEnv): ModelUnderTest[] {
  const wanted = names.length ? names : [env.LLM_MODEL || 'scripted'];
  return wanted.map((label) => {
    if (label === 'scripted') return { label, script: loadScript(DEFAULT_SCRIPT) };
    if (label.startsWith('scripted:')) return { label, script: loadScript(path.resolve(label.slice(9))) };
    if (!/^[a-z-]+:.+/.test(label))
      throw new Error(`--model ${label}: name a model as provider:model (e.g. openai:gpt-4o-mini), or scripted`);
    return { label };
  });
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
 * EVAL_USER_BASE_URL), or else the model under test itself (with LLM_KEY and LLM_BASE_URL).
 */
export function userModelFor(model: ModelUnderTest, scenario: Scenario, env: NodeJS.ProcessEnv): LanguageModel {
  if (!scenario.user) throw new Error(`${scenario.name} has scripted turns, not a played user`);
  if (model.script) return scriptedUserModel(scenario.user);
  const own = env.EVAL_USER_MODEL;
  const config = own
    ? { model: own, key: env.EVAL_USER_KEY || env.LLM_KEY, baseUrl: env.EVAL_USER_BASE_URL }
    : { model: model.label, key: env.LLM_KEY, baseUrl: env.LLM_BASE_URL || undefined };
  return createModel(config).model;
}
