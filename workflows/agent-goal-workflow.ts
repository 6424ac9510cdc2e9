// One conversation with an agent. Reads top-down: state, handlers, main loop, exit.
// Decisions live in Conversation (pure); this file only performs steps and talks to Temporal.
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { config, llm, localConfig, mcp, mcpCallOptions, NATIVE_TOOL_OPTIONS, nativeTools } from './activity-stubs';
import { CHANGE_GOAL, COMPLETE_GOAL, LIST_AGENTS } from './builtin-tools';
import { Conversation, type BuiltinEffect, type Step, type StepFailure } from './conversation';
import {
  agentsQuery,
  catalogQuery,
  changeGoalSignal,
  confirmSignal,
  confirmUpdate,
  currentGoalQuery,
  endChatSignal,
  historyQuery,
  MAX_PROMPT_CHARS,
  pendingToolCallQuery,
  promptUpdate,
  statusQuery,
  toolsQuery,
  usageQuery,
  userPromptSignal,
} from './messages';
import type { AgentGoalInput, AgentSummary, ToolCall, Transcript } from './types';

export async function AgentGoalWorkflow(input: AgentGoalInput): Promise<Transcript> {
  const convo = new Conversation(input.carried);
  let agents: AgentSummary[] = [];

  // ---- handlers: they change state and wait; only the main loop schedules activities ----------------------
  setHandler(userPromptSignal, (text: string) => {
    if (convo.ended) log.warn('prompt after the conversation ended: ignored');
    else if (isValidPrompt(text)) convo.enqueuePrompt(text.trim());
  });
  setHandler(
    promptUpdate,
    async (text: string) => {
      const id = convo.enqueuePrompt(text.trim(), true);
      await condition(() => convo.hasReply(id) || convo.ended);
      return convo.collectReply(id) ?? convo.lastReply!;
    },
    { validator: validatePrompt },
  );
  setHandler(confirmSignal, (decision) => {
    const refusal = convo.confirm(decision);
    if (refusal) log.warn(`confirm ignored: ${refusal}`);
  });
  setHandler(
    confirmUpdate,
    async (decision) => {
      const before = convo.pauses;
      convo.confirm(decision);
      await condition(() => convo.pauses > before);
      return convo.lastReply!;
    },
    {
      validator: (decision) => {
        const refusal = convo.confirmRefusal(decision);
        if (refusal) throw new Error(`Cannot confirm: ${refusal}.`);
      },
    },
  );
  setHandler(endChatSignal, () => convo.endChat());
  setHandler(changeGoalSignal, (goalId: string) => convo.requestGoalChange(goalId));
  setHandler(historyQuery, () => convo.messages);
  setHandler(currentGoalQuery, () => convo.goal ?? null);
  setHandler(pendingToolCallQuery, () => convo.pendingApproval());
  setHandler(agentsQuery, () => agents);
  setHandler(toolsQuery, () => convo.tools);
  setHandler(catalogQuery, () => convo.catalog);
  setHandler(usageQuery, () => ({ total: convo.usage, turns: convo.turnsThisRun, runs: convo.runs }));
  setHandler(statusQuery, () => ({ state: convo.status(), lastReply: convo.lastReply }));

  function validatePrompt(text: string): void {
    if (convo.ended) throw new Error('The conversation has ended; start a new one.');
    if (typeof text !== 'string' || !text.trim()) throw new Error('The prompt is empty.');
    if (text.length > MAX_PROMPT_CHARS) {
      throw new Error(`The prompt has ${text.length} characters; the limit is ${MAX_PROMPT_CHARS}.`);
    }
  }

  function isValidPrompt(text: string): boolean {
    try {
      validatePrompt(text);
      return true;
    } catch (err) {
      log.warn(`prompt signal ignored: ${(err as Error).message}`);
      return false;
    }
  }

  // ---- start: settings and goal come from activities, so a replay sees what the original run saw ----------
  const settings = await config.loadSettings();
  if (input.historyEventBudget) settings.historyEventBudget = input.historyEventBudget;
  // Runs started before per-turn discovery existed keep their recorded command sequence.
  convo.refreshToolsEachTurn = patched('per-turn-tool-discovery');
  convo.begin(settings, await config.resolveGoal(input.goalId));
  if (settings.multiGoal) agents = await config.listAgents();

  // ---- performing steps: the one place activities are called ----------------------------------------------
  async function perform(step: Step): Promise<unknown> {
    switch (step.kind) {
      case 'validate':
        return failSoft(() => llm.validatePrompt({ goal: convo.goal, messages: convo.messages, prompt: step.prompt.text, agents }));
      case 'plan':
        return failSoft(() =>
          llm.planTurn({ goal: convo.goal, tools: convo.tools, messages: convo.messages, summary: convo.summary, agents }),
        );
      case 'tool':
        try {
          const ref = step.spec.mcp;
          if (ref) {
            const input = { name: step.spec.name, ref, args: step.call.args };
            return await mcp.callMcpTool.executeWithOptions(mcpCallOptions(ref.server, ref.tool, ref.timeoutMs), [input]);
          }
          const tool = nativeTools[step.call.tool]!;
          const queue = step.spec.taskQueue;
          if (!queue) return await tool(step.call.args);
          // A tool owned by another worker: same activity type, its own task queue, and a bounded wait for that
          // worker, so if nobody serves the queue the LLM hears so in 30 s, not 3 minutes.
          return await tool.executeWithOptions({ ...NATIVE_TOOL_OPTIONS, taskQueue: queue, scheduleToStartTimeout: '30 seconds' }, [step.call.args]);
        } catch (err) {
          return { status: 'tool_error', error: reason(err) };
        }
      case 'builtin':
        return performBuiltin(step.call);
      case 'switch_goal':
        return failSoft(() => config.resolveGoal(step.goalId));
      case 'refresh_tools':
        return failSoft(() => localConfig.resolveGoal(convo.goal.id));
      case 'idle':
        return undefined;
    }
  }

  async function performBuiltin(call: ToolCall): Promise<BuiltinEffect> {
    try {
      switch (call.tool) {
        case LIST_AGENTS: {
          agents = await config.listAgents();
          const outcome = { status: 'ok' as const, result: { agents } };
          // In multi-goal mode, asking for the other agents from an agent goes back to the picker.
          if (settings.multiGoal && convo.goal.id !== settings.pickerGoalId && patched('list-agents-returns-to-picker')) {
            return { outcome, switchTo: await config.resolveGoal(settings.pickerGoalId) };
          }
          return { outcome };
        }
        case CHANGE_GOAL: {
          const resolved = await config.resolveGoal(String(call.args.goalId));
          return { outcome: { status: 'ok', result: { switchedTo: resolved.goal.agentName } }, switchTo: resolved };
        }
        case COMPLETE_GOAL:
          if (settings.multiGoal && convo.goal.id !== settings.pickerGoalId) {
            const picker = await config.resolveGoal(settings.pickerGoalId);
            return { outcome: { status: 'ok', result: { completed: convo.goal.id, next: 'pick a new agent' } }, switchTo: picker };
          }
          return { outcome: { status: 'ok', result: { completed: convo.goal.id } }, end: true };
        default:
          return { outcome: { status: 'tool_error', error: `no builtin tool named ${call.tool}` } };
      }
    } catch (err) {
      return { outcome: { status: 'tool_error', error: reason(err) } };
    }
  }

  // ---- main loop ------------------------------------------------------------------------------------------
  for (;;) {
    await condition(() => convo.hasWork() || timeToContinueAsNew());
    if (convo.ended) break;
    if (timeToContinueAsNew()) {
      const { older, recent } = convo.splitForCarry();
      const summary = older.length
        ? await llm
            .summarizeConversation({ goal: convo.goal, previousSummary: convo.summary, messages: older })
            .catch(() => convo.summary)
        : convo.summary;
      // A prompt update that arrived meanwhile waits for its reply in this run: answer it first.
      if (!convo.hasWatchers()) {
        await condition(allHandlersFinished);
        await continueAsNew<typeof AgentGoalWorkflow>({
          goalId: convo.goal.id,
          historyEventBudget: input.historyEventBudget,
          carried: convo.carry(summary, recent),
        });
      }
    }
    const step = convo.nextStep();
    if (step.kind !== 'idle') convo.apply(step, await perform(step));
  }

  await condition(allHandlersFinished);
  return convo.transcript();

  function timeToContinueAsNew(): boolean {
    if (!convo.betweenTurns() || convo.hasWatchers() || convo.turnsThisRun === 0) return false;
    const info = workflowInfo();
    return info.continueAsNewSuggested || info.historyLength >= settings.historyEventBudget;
  }
}

async function failSoft<T>(run: () => Promise<T>): Promise<T | StepFailure> {
  try {
    return await run();
  } catch (err) {
    return { failed: reason(err) };
  }
}

/** The innermost message of an activity failure, which names the real cause (e.g. the missing setting). */
function reason(err: unknown): string {
  let e: unknown = err;
  while (e instanceof ActivityFailure && e.cause) e = e.cause;
  if (e instanceof ApplicationFailure || e instanceof Error) return e.message;
  return String(e);
}
