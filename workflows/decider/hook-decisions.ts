// What hooks decided (core/hooks.ts), into the transcript: each decision a note the user reads,
// and a prompt a hook rewrote or blocked replaced where it stands, before any model sees it (the next request
// carries it anew: MessageLog.rewriteLastUser). Pure: the turn and the tool step call these with their results.
import { hookLine, stops, withheldText, type HookDecision, type PromptScreening } from '../../core/hooks';
import type { MessageLog } from './message-log';

/**
 * Each decision as a note for the user. The model is not sent them: it reads what they did where it happened (the
 * withheld message and the reply, the tool error, the [email] in a result), and a note after a tool's result would
 * stand between the result and the model's next step.
 */
export function recordDecisions(log: MessageLog, decisions: HookDecision[] | undefined): void {
  for (const hook of decisions ?? []) log.push({ kind: 'note', text: hookLine(hook), forUser: true, hook });
}

/** The decision that stopped a model call or a message, if one did (it is always the last). */
export function stoppedBy(decisions: HookDecision[] | undefined): HookDecision | undefined {
  return decisions?.find(stops);
}

/**
 * The turn's prompt (the log's last user message) as the hooks left it: rewritten, or its words withheld when a
 * hook blocked it, so no later request, summary or carried run has them. Returns the reply when it was blocked.
 */
export function applyScreening(log: MessageLog, screening: PromptScreening): string | null {
  const stopped = stoppedBy(screening.decisions);
  log.rewriteLastUser(stopped ? withheldText(stopped) : (screening.text ?? ''));
  recordDecisions(log, screening.decisions);
  return stopped ? (screening.blocked ?? stopped.note) : null;
}
