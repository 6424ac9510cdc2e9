// One conversation with an agent. Reads top-down: state, handlers, performing effects, the main loop, exit.
// Conversation decides everything; this file performs its effects (schedules activities) and talks to Temporal.
import {
  allHandlersFinished,
  CancellationScope,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  ParentClosePolicy,
  patched,
  setHandler,
  startChild,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import {
  checkGoalDraft,
  createGoal,
  listAgents,
  loadSettings,
  planTurn,
  resolveGoal,
  runTool,
  searchTools,
  summarizeConversation,
  validatePrompt,
  vetAndPlan,
} from './activity-stubs';
import { Conversation, type RunVersions } from './decider/conversation';
import type { DelegateAnswer, DelegateStart, DelegateStarted, Effect, EffectKind, Performers } from '../core/effects';
import { DEFAULT_DELEGATION_LIMITS } from './decider/delegations';
import { envelopeOf, envelopeOfFailure } from './envelope';
import { failSoft, toolError } from './failures';
import {
  agentsQuery,
  cancelTurnSignal,
  cancelTurnUpdate,
  catalogQuery,
  changeGoalSignal,
  confirmSignal,
  confirmUpdate,
  currentGoalQuery,
  delegateReportSignal,
  delegationsQuery,
  endChatSignal,
  feedQuery,
  historyQuery,
  pendingToolCallQuery,
  promptUpdate,
  statusQuery,
  toolsQuery,
  usageQuery,
  userPromptSignal,
} from '../core/messages';
import type { AgentGoalInput, AgentReply, Transcript } from '../core/types';
import { AGENT_GOAL, AGENT_OWNER, AGENT_STATE, TITLE_CHARS } from './search-attributes';
import { PATCHES, type PatchId } from './versions';
import { TurnObserver } from './turn-observer';
import { feed, prepareCarry, transcript } from './decider/views';

export async function AgentGoalWorkflow(input: AgentGoalInput): Promise<Transcript> {
  const convo = new Conversation(input, workflowInfo().workflowId);
  /** The scope of the effect in flight: cancelling the turn cancels it (its activity sees the cancel). */
  let inFlight: CancellationScope | null = null;
  /** Each delegate at work, by its AskAgent call: cancelling the turn cancels them too. */
  const delegates = new Map<string, CancellationScope>();
  /** Task mode: what this delegate last told its parent it waits for ('' until its first report, which gives its name). */
  let reportedWait = '';
  /** Which versioned paths this run takes; read once the first activity has run (see below). */
  let versions: RunVersions = { refreshToolsEachTurn: false };
  /** What the workflow list shows of this conversation now (search attributes and memo as last upserted). */
  const listed: { goal?: string; state?: string; owner?: string; title?: string } = {};
  const turns = new TurnObserver();

  /** Stops the running turn: Conversation decides what that means; the effect in flight is cancelled. */
  function cancelTurn(): boolean {
    const taken = convo.cancelTurn();
    if (taken) {
      inFlight?.cancel();
      for (const scope of delegates.values()) scope.cancel();
    }
    return taken;
  }

  /** Acts, then waits until the agent next needs the user, and answers with its reply. */
  async function replyAfter(act: () => void): Promise<AgentReply> {
    const before = convo.replies.pauses;
    act();
    await condition(() => convo.replies.pauses > before);
    return convo.replies.last!;
  }

  // ---- handlers: they change state and wait; only the main loop schedules activities ----------------------
  setHandler(userPromptSignal, (text: string) => {
    const refusal = convo.promptRefusal(text);
    if (refusal) log.warn(`prompt signal ignored: ${refusal}`);
    else convo.enqueuePrompt(text.trim());
  });
  setHandler(
    promptUpdate,
    async (text: string) => {
      const id = convo.enqueuePrompt(text.trim(), true);
      await condition(() => convo.replies.has(id) || convo.ended);
      return convo.replies.collect(id) ?? convo.replies.last!;
    },
    { validator: (text) => rejectIf(convo.promptRefusal(text)) },
  );
  setHandler(confirmSignal, (decision) => {
    const refusal = convo.confirm(decision);
    if (refusal) log.warn(`confirm ignored: ${refusal}`);
  });
  setHandler(confirmUpdate, (decision) => replyAfter(() => convo.confirm(decision)), {
    validator: (decision) => rejectIf(convo.confirmRefusal(decision), 'Cannot confirm: '),
  });
  setHandler(cancelTurnSignal, () => {
    // A signal is recorded even by workers that had no handler for it: a run from before cancelling ignores it,
    // so its replay does what it did. (Updates are refused by such workers, so nothing is recorded.)
    if (!versions.cancelAndExpire)
      log.warn('cancel ignored: this conversation started before cancelling existed; use the cancelTurnAndWait update');
    else if (!cancelTurn()) log.warn(`cancel ignored: ${convo.cancelRefusal()}`);
  });
  setHandler(cancelTurnUpdate, () => replyAfter(cancelTurn), {
    validator: () => rejectIf(convo.cancelRefusal(), 'Cannot cancel: '),
  });
  setHandler(endChatSignal, () => convo.endChat());
  setHandler(changeGoalSignal, (goalId: string) => convo.requestGoalChange(goalId));
  setHandler(delegateReportSignal, (report) => convo.delegateReport(report));
  setHandler(delegationsQuery, () => convo.delegations.list());
  setHandler(historyQuery, () => convo.messages);
  setHandler(feedQuery, (since) => feed(convo, since));
  setHandler(currentGoalQuery, () => convo.goal ?? null);
  setHandler(pendingToolCallQuery, () => convo.pendingApproval());
  setHandler(agentsQuery, () => convo.agents);
  setHandler(toolsQuery, () => convo.tools);
  setHandler(catalogQuery, () => convo.catalog);
  setHandler(usageQuery, () => ({
    total: convo.usage,
    turns: convo.turnsThisRun,
    runs: convo.runs,
    byGoal: convo.usageByGoal,
  }));
  setHandler(statusQuery, () => ({
    state: convo.status(),
    lastReply: convo.replies.last,
    delegations: convo.delegations.list(),
  }));

  // ---- start: settings and goal come from activities, so a replay sees what the original run saw ----------
  const settings = await loadSettings();
  versions = {
    refreshToolsEachTurn: patched(PATCHES.perTurnToolDiscovery),
    cancelAndExpire: patched(PATCHES.cancelAndExpire),
    oneModelWait: patched(PATCHES.oneModelWait),
    budgets: patched(PATCHES.budgets),
  };
  convo.begin(settings, await resolveGoal(input.goalId), versions);
  const searchable = !!settings.searchAttributes && patched(PATCHES.searchAttributes);

  // ---- performing effects: the one place activities are called ----------------------------------------------
  const perform: Performers = {
    validate: ({ request }) => failSoft(() => validatePrompt(request, convo.settings.modelGiveUpSeconds)),
    vet_and_plan: ({ request }) => failSoft(() => vetAndPlan(request, convo.settings.modelGiveUpSeconds)),
    plan: ({ request }) => failSoft(() => planTurn(request, convo.settings.modelGiveUpSeconds)),
    run_tool: ({ call, spec }) =>
      runTool(spec, call.args, !!versions.cancelAndExpire).catch((err) => toolError(err, spec)),
    list_agents: () => failSoft(() => listAgents()),
    resolve_goal: ({ goalId, why }) => failSoft(() => resolveGoal(goalId, why)),
    check_version: async ({ patchId }) => patched(patchId),
    start_delegates: ({ delegates: starts }) => Promise.all(starts.map(startDelegate)),
    answer_delegate: ({ childId, answer }) => answerDelegate(childId, answer),
    search_tools: ({ tools, query, limit }) =>
      versioned(PATCHES.searchTools, () => searchTools({ tools, query, limit })),
    check_goal_draft: ({ call }) => versioned(PATCHES.createAgent, () => checkGoalDraft(call.args.goal)),
    create_goal: ({ call, request }) =>
      versioned(PATCHES.createAgent, () => createGoal({ draft: call.args.goal, request, callId: call.id })),
  };

  /** A new command path, behind its patch; a run recorded before it says so instead of running it. */
  function versioned<T>(patchId: PatchId, run: () => Promise<T>): Promise<T | { failed: string }> {
    if (!patched(patchId)) return Promise.resolve({ failed: 'this conversation started before this tool existed' });
    return failSoft(run);
  }

  /** Starts one delegate as a child conversation and, in its own scope, hands its envelope back when it ends. */
  async function startDelegate({ call, childId, input: childInput }: DelegateStart): Promise<DelegateStarted> {
    // Delegation adds commands (child workflows); versioned like every such change.
    if (!patched(PATCHES.delegation))
      return { callId: call.id, failed: 'this conversation started before delegation existed' };
    const { timeoutSeconds } = convo.settings.delegation ?? DEFAULT_DELEGATION_LIMITS;
    const scope = new CancellationScope();
    delegates.set(call.id, scope);
    let started: (value: DelegateStarted) => void = () => undefined;
    const startedOrNot = new Promise<DelegateStarted>((resolve) => (started = resolve));
    void scope
      .run(async () => {
        const child = await startChild(AgentGoalWorkflow, {
          workflowId: childId,
          args: [childInput],
          // Ending the parent cancels its delegates (their tools hear the cancel), rather than killing them.
          parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
          workflowExecutionTimeout: `${timeoutSeconds} seconds`,
          staticSummary: `delegate: ${childInput.goalId}`,
        });
        started({ callId: call.id, started: true });
        convo.applyEnvelope(call.id, envelopeOf(await child.result()));
      })
      .catch((err: unknown) => {
        started({ callId: call.id, failed: (err as Error).message ?? String(err) });
        convo.applyEnvelope(call.id, envelopeOfFailure(err, timeoutSeconds));
      })
      .finally(() => delegates.delete(call.id));
    return startedOrNot;
  }

  /** The user's answer goes down to the delegate: its confirm, or its AskUser answer as a prompt. */
  async function answerDelegate(childId: string, answer: DelegateAnswer): Promise<true | { failed: string }> {
    const child = getExternalWorkflowHandle(childId);
    try {
      if ('confirm' in answer) await child.signal(confirmSignal, answer.confirm);
      else await child.signal(userPromptSignal, answer.reply);
      return true;
    } catch (err) {
      return { failed: (err as Error).message };
    }
  }
  async function performAndApply<K extends EffectKind>(effect: Effect<K>): Promise<void> {
    convo.apply(effect, await perform[effect.kind](effect));
  }
  /** Performs one effect in its own cancellation scope, so cancelling the turn cancels just this effect. */
  async function step(effect: Effect): Promise<void> {
    const scope = new CancellationScope();
    inFlight = scope;
    try {
      await scope.run(() => performAndApply(effect));
    } catch (err) {
      if (!isCancellation(err) || !scope.consideredCancelled) throw err;
      convo.applyCancelled(effect);
    } finally {
      inFlight = null;
    }
  }

  // ---- main loop ------------------------------------------------------------------------------------------
  for (;;) {
    publish();
    await waitForWork();
    publish();
    if (convo.ended) break;
    if (historyIsFull()) await continueAsNewUnlessWatched();
    const effect = convo.nextEffect();
    if (effect) await turns.run(() => step(effect));
  }
  publish();
  await condition(allHandlersFinished);
  return transcript(convo);

  /** Keeps the conversation findable: goal, state and owner as search attributes, the first prompt as the title.
   * A delegate also tells its parent when it starts or stops waiting for the user. */
  function publish(): void {
    turns.observe(convo.status(), convo.goal.id, convo.turnsThisRun);
    if (input.task) reportToParent(input.task.parentId, input.task.callId);
    if (!searchable) return;
    const updates: SearchAttributeUpdatePair[] = [];
    if (convo.goal.id !== listed.goal) updates.push({ key: AGENT_GOAL, value: (listed.goal = convo.goal.id) });
    if (convo.status() !== listed.state) updates.push({ key: AGENT_STATE, value: (listed.state = convo.status()) });
    if (input.owner && !listed.owner) updates.push({ key: AGENT_OWNER, value: (listed.owner = input.owner) });
    if (updates.length) upsertSearchAttributes(updates);
    const title = convo.title(TITLE_CHARS);
    if (title && title !== listed.title) upsertMemo({ title: (listed.title = title) });
  }

  /** Waits until there is something to do; a wait for the user that outlives its limit expires (approval, idle). */
  async function waitForWork(): Promise<void> {
    const ready = () => convo.hasWork() || historyIsFull();
    const limit = ready() ? null : convo.waitLimit();
    if (!limit) return condition(ready);
    const summary = limit.expires === 'approval' ? 'approval expires' : 'idle conversation ends';
    // Work that arrived with the timer wins: the wait did not run out.
    if (!(await condition(ready, limit.seconds * 1000, { summary })) && !ready()) convo.expire(limit);
  }

  function reportToParent(parentId: string, callId: string): void {
    const waiting = convo.delegateWait();
    const key = JSON.stringify(waiting);
    if (key === reportedWait) return;
    reportedWait = key;
    // The parent may have ended meanwhile: nothing to tell then.
    getExternalWorkflowHandle(parentId)
      .signal(delegateReportSignal, { callId, agentName: convo.goal.agentName, waiting })
      .catch((err: unknown) => log.warn(`could not tell the parent ${parentId}: ${(err as Error).message}`));
  }

  function historyIsFull(): boolean {
    if (!convo.mayContinueAsNew()) return false;
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= convo.settings.historyEventBudget;
  }

  /** Summarises the older messages and continues as a new run, unless something arrived meanwhile that this run
   * must answer first: a prompt update waiting for its reply, a cancel, or the end of the chat. */
  async function continueAsNewUnlessWatched(): Promise<void> {
    const { summarize, nextRun } = prepareCarry(convo);
    const summary = summarize
      ? await summarizeConversation(summarize, convo.settings.modelGiveUpSeconds).catch(() => convo.summary)
      : convo.summary;
    if (!convo.mayContinueAsNew()) return;
    if (convo.ended && patched(PATCHES.endSurvivesCarry)) return;
    await condition(allHandlersFinished);
    await continueAsNew<typeof AgentGoalWorkflow>(nextRun(summary));
  }
}

function rejectIf(refusal: string | null, prefix = ''): void {
  if (refusal) throw new Error(`${prefix}${refusal}${prefix ? '.' : ''}`);
}
