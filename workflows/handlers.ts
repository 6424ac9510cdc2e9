// The conversation's signals, queries and updates (core/messages.ts). Handlers change state and wait; only the main
// loop schedules activities. Conversation decides what each input means.
import { condition, log, setHandler } from '@temporalio/workflow';
import * as m from '../core/messages';
import type { AgentReply } from '../core/conversation-types';
import type { Conversation } from './decider/conversation';
import { feed, shownState } from './decider/views';
import type { RunVersions } from './versions';

export function setHandlers(
  convo: Conversation,
  workflow: {
    /** Stops the running turn and cancels what is in flight; false when refused. */
    cancelTurn(): boolean;
    /** A message came to join the running turn: the model call in flight, if any, is cancelled. */
    interrupt(): void;
    versions(): RunVersions;
    /** A delegate tells its parent what it now waits for from the user (nothing for a user's own conversation). */
    reportWait(): void;
  },
): void {
  /** Acts, then waits until the agent next needs the user, and answers with its reply. */
  async function replyAfter(act: () => void): Promise<AgentReply> {
    const before = convo.replies.pauses;
    act();
    await condition(() => convo.replies.pauses > before);
    return convo.replies.last!;
  }

  /** Queues a prompt; one sent to interrupt the turn cancels the model call in flight (decider/steering.ts). */
  function enqueue(input: m.PromptInput, watch = false): number {
    const interrupts = convo.steering.modeOf(input) === 'interrupt';
    const id = convo.enqueuePrompt(input, watch);
    if (interrupts) workflow.interrupt();
    return id;
  }

  setHandler(m.userPromptSignal, (input) => {
    const refusal = convo.promptRefusal(input);
    if (refusal) log.warn(`prompt signal ignored: ${refusal}`);
    else enqueue(input);
  });
  setHandler(
    m.promptUpdate,
    async (input) => {
      const id = enqueue(input, true);
      await condition(() => convo.replies.has(id) || convo.ended);
      return convo.replies.collect(id) ?? convo.replies.last!;
    },
    { validator: (text) => rejectIf(convo.promptRefusal(text)) },
  );
  setHandler(m.confirmSignal, (decision) => {
    const refusal = convo.confirm(decision);
    if (refusal) log.warn(`confirm ignored: ${refusal}`);
  });
  setHandler(m.confirmUpdate, (decision) => replyAfter(() => convo.confirm(decision)), {
    validator: (decision) => rejectIf(convo.confirmRefusal(decision), 'Cannot confirm: '),
  });
  setHandler(m.answerQuestionUpdate, (input) => replyAfter(() => convo.questions.take(input, convo.ended)), {
    validator: (input) => rejectIf(convo.questions.refusal(input, convo.ended), 'Cannot answer: '),
  });
  setHandler(m.answerToolQuestionSignal, (input) => {
    const refusal = convo.questions.refusal(input, convo.ended);
    if (refusal) log.warn(`answer ignored: ${refusal}`);
    else convo.questions.take(input, convo.ended);
  });
  // A running tool's activity asks; its update id is the question's id, so a retried call asking the same again joins
  // this update (or gets its answer, once given) instead of asking twice.
  setHandler(
    m.toolQuestionUpdate,
    async (question) => {
      convo.askUser(question);
      // The main loop waits on the tool call: a delegate tells its parent from here.
      workflow.reportWait();
      const seconds = convo.settings.toolQuestionTimeoutSeconds ?? DEFAULT_QUESTION_SECONDS;
      const answered = await condition(() => convo.questions.answerOf(question.id) !== null, seconds * 1000);
      const answer = convo.questions.settle(question.id, !answered);
      workflow.reportWait();
      if (!answered) convo.log.note(`Nobody answered ${question.tool}'s question within ${seconds} s: declined.`);
      return answer;
    },
    { validator: (question) => rejectIf(convo.questions.askRefusal(question, convo.ended)) },
  );
  setHandler(m.cancelTurnSignal, () => {
    // A signal is recorded even by workers that had no handler for it: a run from before cancelling ignores it,
    // so its replay does what it did. (Updates are refused by such workers, so nothing is recorded.)
    if (!workflow.versions().cancelAndExpire)
      log.warn('cancel ignored: this conversation started before cancelling existed; use the cancelTurnAndWait update');
    else if (!workflow.cancelTurn()) log.warn(`cancel ignored: ${convo.cancelRefusal()}`);
  });
  setHandler(m.cancelTurnUpdate, () => replyAfter(workflow.cancelTurn), {
    validator: () => rejectIf(convo.cancelRefusal(), 'Cannot cancel: '),
  });
  setHandler(m.endChatSignal, () => convo.endChat());
  setHandler(m.changeGoalSignal, (goalId: string) => convo.requestGoalChange(goalId));
  setHandler(m.delegateReportSignal, (report) => convo.delegateReport(report));
  setHandler(m.delegationsQuery, () => convo.delegations.list());
  setHandler(m.historyQuery, () => convo.messages);
  setHandler(m.planContextQuery, (version) => convo.turn.contexts.get(version));
  setHandler(m.feedQuery, (since) => feed(convo, since));
  setHandler(m.currentGoalQuery, () => convo.goal ?? null);
  setHandler(m.pendingToolCallQuery, () => convo.pendingApproval());
  setHandler(m.agentsQuery, () => convo.agents);
  setHandler(m.toolsQuery, () => convo.tools);
  setHandler(m.catalogQuery, () => convo.catalog);
  setHandler(m.usageQuery, () => ({
    total: convo.usage,
    turns: convo.turnsThisRun,
    runs: convo.runs,
    byGoal: convo.usageByGoal,
    byModel: convo.budget.usageByModel,
  }));
  setHandler(m.statusQuery, () => ({
    state: shownState(convo),
    lastReply: convo.replies.last,
    delegations: convo.delegations.list(),
    ...(convo.models.inUse() ? { fallback: convo.models.inUse()! } : {}),
  }));
}

/** TOOL_QUESTION_TIMEOUT's default, for runs whose settings predate it. */
const DEFAULT_QUESTION_SECONDS = 600;

function rejectIf(refusal: string | null, prefix = ''): void {
  if (refusal) throw new Error(`${prefix}${refusal}${prefix ? '.' : ''}`);
}
