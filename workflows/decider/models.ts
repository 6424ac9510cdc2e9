// Which model answers the conversation: the goal's own (else the worker's LLM_MODEL) and, once it has kept failing
// in a way another model could fix, the next of its fallbacks (the goal's list, else LLM_FALLBACK_MODELS). Decided
// from failures recorded in history and the workflow's clock, so a replay decides every switch again the same way.
import type { ModelChoice } from '../../core/activity-types';
import type { FallbackInUse } from '../../core/conversation-types';
import type { Goal, Settings } from '../../core/types';

/** LLM_FALLBACK_AFTER and LLM_FALLBACK_COOLDOWN's defaults, for runs whose settings predate them. */
export const DEFAULT_FALLBACK = { afterSeconds: 30, cooldownSeconds: 600 } as const;

/** One model of the chain: its name, and what the activity is asked (nothing for the goal's own model). */
export interface ChainLink {
  name: string;
  choice: ModelChoice;
}

export class Models {
  private fallback: FallbackInUse | null;

  constructor(carried?: { fallback?: FallbackInUse }) {
    this.fallback = carried?.fallback ?? null;
  }

  /** The goal's own model, then its fallbacks (none repeated): the order a failing call walks. */
  chain(goal: Goal, settings: Settings): ChainLink[] {
    const own = ownModel(goal, settings);
    const fallbacks = goal.settings?.fallbackModels ?? settings.fallbackModels ?? [];
    const names = [...new Set(fallbacks)].filter((m) => m !== own);
    return [{ name: own, choice: {} }, ...names.map((name) => ({ name, choice: { model: name, fallbackFrom: own } }))];
  }

  /** Where a call starts in `chain`: at the fallback in use, until LLM_FALLBACK_COOLDOWN has passed since the switch
   * (then the goal's own model is asked again), or when the goal's chain no longer has it. */
  start(chain: ChainLink[], settings: Settings, now: number): number {
    if (!this.fallback) return 0;
    const cooldownMs = (settings.fallbackCooldownSeconds ?? DEFAULT_FALLBACK.cooldownSeconds) * 1000;
    const at = chain.findIndex((link) => link.name === this.fallback!.model);
    if (at <= 0 || now - this.fallback.since >= cooldownMs) {
      this.fallback = null;
      return 0;
    }
    return at;
  }

  /** How long a call to `chain[at]` may keep failing: LLM_FALLBACK_AFTER while another model comes after it. */
  giveUpSeconds(chain: ChainLink[], at: number, settings: Settings): number | undefined {
    if (at === chain.length - 1) return settings.modelGiveUpSeconds;
    const after = settings.fallbackAfterSeconds ?? DEFAULT_FALLBACK.afterSeconds;
    return settings.modelGiveUpSeconds ? Math.min(after, settings.modelGiveUpSeconds) : after;
  }

  switchTo(link: ChainLink, now: number): void {
    this.fallback = link.choice.model ? { model: link.name, since: now } : null;
  }

  /** The fallback answering now, for status and continue-as-new; null: the goal's own model. */
  inUse(): FallbackInUse | null {
    return this.fallback;
  }
}

/** The goal's own model's name, as LLM_MODEL is written. */
export function ownModel(goal: Goal, settings: Settings): string {
  return goal.settings?.model ?? settings.model ?? 'the default model';
}

/** What the transcript says of a switch (a note the user sees and the model does not). */
export function switchNote(from: string, to: string, why: string): string {
  return `${from} kept failing (${why.replace(/\.$/, '')}); ${to} answers instead.`;
}
