// A turn cancelled by the user (the cancelTurn signal or update): the workflow cancels the effect in flight and the
// delegates at work; these record what is known of each and stop the turn, so the agent waits for the next prompt.
import type { Effect } from '../../core/effects';
import { cancelledCall } from '../../core/failures';
import { STOPPED_REPLY } from '../../core/messages';
import type { BuiltinContext } from './builtins/builtin';
import type { Prompts } from './prompts';
import type { ToolStep } from './tool-step';
import type { Turn } from './turn';

/** What cancelling changes of the conversation (Conversation implements it). */
export interface CancelHost extends BuiltinContext {
  readonly turn: Turn;
  readonly step: ToolStep;
  readonly prompts: Prompts;
  endTurn(outcome?: 'cancelled'): void;
}

/** The effect in flight was cancelled before it finished: record what is known of it. */
export function applyCancelled(convo: CancelHost, effect: Effect): void {
  if (effect.kind === 'validate') convo.log.user(effect.prompt);
  // A builtin's check before approval was not the call: the cancelled turn declines it.
  if (effect.kind === 'run_tool' && !effect.check)
    convo.record(effect.call, { status: 'tool_error', error: cancelledCall(effect.spec) });
  if (effect.kind === 'start_delegates') convo.step.cancelDelegates(effect.delegates.map((d) => d.call));
  // The agents a multi-goal run starts with are not part of any turn: list them again.
  if (effect.kind === 'list_agents' && !effect.call) convo.followWith(effect);
}

/** Stops the turn: calls not yet run are declined, and the agent waits for the next prompt. */
export function stopTurn(convo: CancelHost): void {
  // Cancelled before its turn began (the tools were being refreshed): that prompt is dropped, and answered.
  const prompt = convo.turn.open ? undefined : convo.prompts.take();
  if (prompt) convo.log.user(prompt);
  convo.turn.withholdUnchecked(!!prompt && !prompt.starter);
  // Delegates at work are cancelled with the turn (the workflow cancels them); their calls say so.
  convo.step.cancelDelegates();
  convo.step.decline('the user cancelled the turn');
  convo.log.say(STOPPED_REPLY);
  convo.endTurn('cancelled');
}
