// Where hooks run and how the transcript records what they decided: the part of core/hooks.ts that the conversation's
// own types (core/types.ts: a note's decision, the settings' points) need, apart, so neither file imports the other.

/** Where a hook runs. */
export type HookPoint = 'userMessage' | 'beforeModelCall' | 'afterModelCall' | 'beforeToolCall' | 'afterToolCall';

export const HOOK_POINTS: readonly HookPoint[] = [
  'userMessage',
  'beforeModelCall',
  'afterModelCall',
  'beforeToolCall',
  'afterToolCall',
];

/** A hook's decision, as the transcript records it: passes are not recorded. */
export interface HookDecision {
  hook: string;
  point: HookPoint;
  /** `failed`: the hook threw or answered nonsense; it failed closed, as a block does. */
  action: 'rewrite' | 'block' | 'failed';
  /** rewrite: what changed (the hook's words); block: its reason; failed: what went wrong. */
  note: string;
  /** At the tool points: the tool called. */
  tool?: string;
}
