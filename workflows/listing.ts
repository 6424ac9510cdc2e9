// What others see of a conversation while it runs: its row in Temporal's list (goal, state and owner as search
// attributes, the first prompt as the memo's title), its turns as metrics and traces, and, for a delegate, what it
// waits for from the user, reported to its parent. Each is sent only when it changed.
import { getExternalWorkflowHandle, log, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { delegateReportSignal } from '../core/messages';
import type { Conversation } from './decider/conversation';
import { AGENT_GOAL, AGENT_OWNER, AGENT_STATE, TITLE_CHARS } from './search-attributes';
import { TurnObserver } from './turn-observer';

export class Listing {
  readonly turns = new TurnObserver();
  /** Whether the worker registered the search attributes (and this run is new enough to keep them). */
  searchable = false;
  /** Search attributes and memo as last upserted. */
  private readonly listed: { goal?: string; state?: string; owner?: string; title?: string } = {};
  /** Task mode: what this delegate last told its parent it waits for ('' until its first report, which names it). */
  private reportedWait = '';

  constructor(private readonly convo: Conversation) {}

  publish(): void {
    const { convo, listed } = this;
    const { input } = convo;
    this.turns.observe(convo.status(), convo.goal.id, convo.turnsThisRun);
    if (input.task?.parentId) this.reportToParent(input.task.parentId, input.task.callId ?? '');
    if (!this.searchable) return;
    const updates: SearchAttributeUpdatePair[] = [];
    if (convo.goal.id !== listed.goal) updates.push({ key: AGENT_GOAL, value: (listed.goal = convo.goal.id) });
    if (convo.status() !== listed.state) updates.push({ key: AGENT_STATE, value: (listed.state = convo.status()) });
    if (input.owner && !listed.owner) updates.push({ key: AGENT_OWNER, value: (listed.owner = input.owner) });
    if (updates.length) upsertSearchAttributes(updates);
    const title = convo.turn.title(TITLE_CHARS);
    if (title && title !== listed.title) upsertMemo({ title: (listed.title = title) });
  }

  /** A delegate's wait, told to its parent now (from a handler, while the main loop waits on a tool call). */
  reportWait(): void {
    const { task } = this.convo.input;
    if (task?.parentId) this.reportToParent(task.parentId, task.callId ?? '');
  }

  private reportToParent(parentId: string, callId: string): void {
    const waiting = this.convo.delegateWait();
    const key = JSON.stringify(waiting);
    if (key === this.reportedWait) return;
    this.reportedWait = key;
    // The parent may have ended meanwhile: nothing to tell then.
    getExternalWorkflowHandle(parentId)
      .signal(delegateReportSignal, { callId, agentName: this.convo.goal.agentName, waiting })
      .catch((err: unknown) => log.warn(`could not tell the parent ${parentId}: ${(err as Error).message}`));
  }
}
