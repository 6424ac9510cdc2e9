// One conversation with an agent, as a short interpreter. Conversation decides everything; this file asks it for
// the next effect, performs it (perform.ts: the one place activities are called) and hands the result back, waits
// for the user (with the limits Conversation sets), and continues as new when the history is full or a newer build
// is current. When it ends, a goal that says `memory.extract` has memories proposed from it for the user to keep.
import {
  allHandlersFinished,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  log,
  makeContinueAsNewFunc,
  patched,
  workflowInfo,
} from '@temporalio/workflow';
import type { Effect, EffectKind } from '../core/effects';
import type { AgentGoalInput, Transcript } from '../core/conversation-types';
import { loadSettings, newerBuildRouted, proposeMemories, resolveGoal, summarizeConversation } from './activity-stubs';
import { Conversation } from './decider/conversation';
import { interruptible } from './decider/steering';
import { extractionRequest } from './decider/extraction';
import { prepareCarry, transcript } from './decider/views';
import { expire, waitLimit } from './decider/waits';
import { setHandlers } from './handlers';
import { Listing } from './listing';
import { performers } from './perform';
import { unattended } from './outcome';
import { PATCHES, type RunVersions } from './versions';

/** How long a conversation that was routed back to an older build stays before asking again (workflow time). */
const STAY_MS = 60 * 60 * 1000;

export async function AgentGoalWorkflow(input: AgentGoalInput): Promise<Transcript> {
  // A schedule's or a trigger's run is counted when it ends, and its outcome sent where it says (outcome.ts).
  if (input.run) return unattended(input, input.run, () => converse(input));
  return converse(input);
}

async function converse(input: AgentGoalInput): Promise<Transcript> {
  const convo = new Conversation(input, workflowInfo().workflowId);
  /** The scope of the effect in flight: cancelling the turn cancels it (its activity sees the cancel). */
  let inFlight: CancellationScope | null = null;
  let inFlightKind: EffectKind | null = null;
  /** The effect in flight is being cancelled for a message that joins the turn (decider/steering.ts). */
  let interrupting = false;
  /** Each delegate at work, by its AskAgent call. */
  const delegates = new Map<string, CancellationScope>();
  /** Which versioned paths this run takes; read once the first activity has run (see below). */
  let versions: RunVersions = { refreshToolsEachTurn: false };
  const listing = new Listing(convo);
  /** Workflow time until which this run stays on its build: the deployment routes to an older one (a rollback). */
  let stayUntil = 0;

  /** Stops the running turn: Conversation decides what that means; the effect in flight is cancelled. */
  function cancelTurn(): boolean {
    const taken = convo.cancelTurn();
    if (taken) {
      inFlight?.cancel();
      for (const scope of delegates.values()) scope.cancel();
    }
    return taken;
  }
  /** A message sent to interrupt the turn arrived: the model call in flight, if one is, is cancelled so the next
   * plan sees the message; anything else in flight (a tool, a delegate) finishes first. */
  function interrupt(): void {
    if (!inFlight || !inFlightKind || !interruptible(inFlightKind) || !convo.prompts.steering()) return;
    if (!convo.turn.interruptible()) return;
    interrupting = true;
    inFlight.cancel();
  }
  setHandlers(convo, { cancelTurn, interrupt, versions: () => versions, reportWait: () => listing.reportWait() });

  // ---- start: settings and goal come from activities, so a replay sees what the original run saw ----------
  const settings = await loadSettings();
  versions = {
    refreshToolsEachTurn: patched(PATCHES.perTurnToolDiscovery),
    cancelAndExpire: patched(PATCHES.cancelAndExpire),
    oneModelWait: patched(PATCHES.oneModelWait),
    budgets: patched(PATCHES.budgets),
    upgradeOnNewBuild: patched(PATCHES.upgradeOnNewBuild),
    buildMovesForward: patched(PATCHES.buildMovesForward),
    refreshDelegates: patched(PATCHES.a2aDelegates),
    steering: patched(PATCHES.steering),
  };
  // A task (a delegate's) inherits its parent's build; when a newer one is current, the task runs there instead.
  // Nothing has reached it yet, so it carries its input unchanged.
  if (input.task && workflowInfo().targetWorkerDeploymentVersionChanged && (await movesForward())) {
    return await makeContinueAsNewFunc<typeof AgentGoalWorkflow>({ initialVersioningBehavior: 'AUTO_UPGRADE' })(input);
  }
  convo.begin(settings, await resolveGoal(input.goalId), versions);
  listing.searchable = !!settings.searchAttributes && patched(PATCHES.searchAttributes);
  const perform = performers(convo, { workflow: AgentGoalWorkflow, versions: () => versions, delegates });

  async function performAndApply<K extends EffectKind>(effect: Effect<K>): Promise<void> {
    convo.apply(effect, await perform[effect.kind](effect));
  }
  /** Performs one effect in its own cancellation scope, so cancelling the turn cancels just this effect. */
  async function step(effect: Effect): Promise<void> {
    const scope = new CancellationScope();
    inFlight = scope;
    inFlightKind = effect.kind;
    // A tool call's activity may ask the user (toolQuestion); whatever it still asks when the call ends is withdrawn.
    if (effect.kind === 'run_tool') convo.questions.during(effect.call);
    try {
      await scope.run(() => performAndApply(effect));
    } catch (err) {
      if (!isCancellation(err) || !scope.consideredCancelled) throw err;
      if (interrupting) convo.applyInterrupted(effect);
      else convo.applyCancelled(effect);
    } finally {
      inFlight = null;
      inFlightKind = null;
      interrupting = false;
      if (effect.kind === 'run_tool') convo.questions.callEnded();
    }
  }

  // ---- main loop ------------------------------------------------------------------------------------------
  for (;;) {
    listing.publish();
    await waitForWork();
    listing.publish();
    if (convo.ended) break;
    if (timeToContinueAsNew()) await continueAsNewUnlessWatched();
    const effect = convo.nextEffect();
    if (effect) await listing.turns.run(() => step(effect));
  }
  listing.publish();
  await proposeMemoriesAtEnd();
  await condition(allHandlersFinished);
  return transcript(convo);

  /** A goal that says `memory.extract` has memories proposed from the conversation that ended (decider/extraction.ts);
   * a history that ended without it replays without it (PATCHES.memoryExtract). A failure costs the proposals, not
   * the conversation. */
  async function proposeMemoriesAtEnd(): Promise<void> {
    const request = extractionRequest(convo);
    if (!request || !patched(PATCHES.memoryExtract)) return;
    const { modelGiveUpSeconds, heartbeatTimeoutSeconds } = convo.settings;
    try {
      const { usage, model } = await proposeMemories(request, modelGiveUpSeconds, heartbeatTimeoutSeconds);
      // Its cost is the conversation's: counted in the usage its transcript reports.
      convo.budget.spend(usage, convo.goal.id, model ? { [model]: usage } : undefined);
    } catch (err) {
      if (isCancellation(err)) throw err;
      log.warn(`memories not proposed: ${(err as Error).message}`);
    }
  }

  /** Waits until there is something to do; a wait for the user that outlives its limit expires (approval, idle). */
  async function waitForWork(): Promise<void> {
    const ready = () => convo.hasWork() || timeToContinueAsNew();
    const limit = ready() ? null : waitLimit(convo);
    if (!limit) return condition(ready);
    const summary = limit.expires === 'approval' ? 'approval expires' : 'idle conversation ends';
    // Work that arrived with the timer wins: the wait did not run out.
    if (!(await condition(ready, limit.seconds * 1000, { summary })) && !ready()) expire(convo, limit);
  }

  /** Time to continue as new: the history is long, or (pinned to an older build) a newer build is current. */
  function timeToContinueAsNew(): boolean {
    if (!convo.mayContinueAsNew()) return false;
    const routedElsewhere =
      !!versions.upgradeOnNewBuild &&
      workflowInfo().targetWorkerDeploymentVersionChanged &&
      !(versions.buildMovesForward && Date.now() < stayUntil);
    return historyFull() || routedElsewhere;
  }

  function historyFull(): boolean {
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= convo.settings.historyEventBudget;
  }

  /**
   * Whether the next run starts on the build new conversations start on (then stays pinned to it), rather than on
   * this one: yes on a versioned worker, unless the deployment now routes to an older build (a rollback), which
   * could not read state written by this build's code. Told so, this run stays and asks again after STAY_MS.
   */
  async function movesForward(): Promise<boolean> {
    const info = workflowInfo();
    const own = info.currentDeploymentVersion;
    // Only from a versioned worker: an unversioned one may not name a versioning behaviour.
    if (!versions.upgradeOnNewBuild || !own?.deploymentName) return false;
    if (!versions.buildMovesForward || !info.targetWorkerDeploymentVersionChanged) return true;
    if (Date.now() < stayUntil) return false;
    const newer = await newerBuildRouted({ deployment: own.deploymentName, buildId: own.buildId }).catch((err) => {
      if (isCancellation(err)) throw err;
      return false;
    });
    if (!newer) stayUntil = Date.now() + STAY_MS;
    return newer;
  }

  /** Summarises the older messages and continues as a new run, unless something arrived meanwhile that this run
   * must answer first: a prompt update waiting for its reply, a cancel, or the end of the chat. */
  async function continueAsNewUnlessWatched(): Promise<void> {
    // Asked first: routed back to an older build, with a history that is not full, there is nothing to do.
    const forward = await movesForward();
    if (!forward && !historyFull()) return;
    const { summarize, nextRun } = prepareCarry(convo);
    const summary = summarize
      ? await summarizeConversation(
          summarize,
          convo.settings.modelGiveUpSeconds,
          convo.settings.heartbeatTimeoutSeconds,
        ).catch(() => convo.summary)
      : convo.summary;
    if (!convo.mayContinueAsNew()) return;
    if (convo.ended && patched(PATCHES.endSurvivesCarry)) return;
    await condition(allHandlersFinished);
    // A conversation moves to new code here only, between turns, with nothing open, never mid-turn; otherwise the
    // next run stays pinned to this build.
    const carryOn = forward
      ? makeContinueAsNewFunc<typeof AgentGoalWorkflow>({ initialVersioningBehavior: 'AUTO_UPGRADE' })
      : continueAsNew<typeof AgentGoalWorkflow>;
    await carryOn(nextRun(summary));
  }
}
