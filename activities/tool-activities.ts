// The catch-all activity: a native tool runs as an activity whose type is the tool's name, so the Temporal UI
// and history show what ran, while one function dispatches to the handler.
import { activityInfo, ApplicationFailure } from '@temporalio/activity';
import { z } from 'zod';
import { ToolError, type ToolContext } from '../tools/define-tool';
import { recordedEffect, recordEffect } from '../tools/effect-ledger';
import { whileHeartbeating } from './heartbeat';
import { DEFAULT_LIMITS, type Limits } from './limits';
import { keepOutcome, type ClaimCheck } from './claim-check';
import { callKey } from '../tools/idempotency';
import type { ToolRegistry } from '../tools/tool-registry';
import { FailureTypes, type NativeToolCall } from '../core/activity-types';
import type { ToolOutcome } from '../core/types';
import { observeToolCall } from './call-telemetry';
import type { HookRunner } from './hooks/hook-runner';
import { afterToolCall, beforeToolCall, withDecisions } from './hooks/tool-hooks';
import type { HookedOutcome } from '../core/hooks';

export function createToolDispatcher(
  tools: ToolRegistry,
  ctx: ToolContext,
  limits: Limits = DEFAULT_LIMITS,
  check?: ClaimCheck,
  /** The hooks around tool calls (HOOKS: beforeToolCall, afterToolCall). */
  hooks?: HookRunner,
) {
  return async function runNativeTool(args: Record<string, unknown>, call?: NativeToolCall): Promise<HookedOutcome> {
    return observeToolCall(activityInfo().activityType, undefined, () => run(args, call?.owner));
  };

  async function run(given: Record<string, unknown>, owner?: string): Promise<HookedOutcome> {
    const info = activityInfo();
    const name = info.activityType;
    const tool = tools.get(name);
    if (!tool) {
      throw ApplicationFailure.nonRetryable(`No native tool named "${name}" on this worker.`, FailureTypes.UnknownTool);
    }
    const before = await beforeToolCall(hooks, { tool: name }, given ?? {});
    if (before.stopped) return before.stopped;
    const outcome = await checkedRun(tool, before.args, info.workflowExecution?.workflowId, owner);
    return withDecisions(outcome, [...before.decisions, ...(outcome.hooks ?? [])]);
  }

  /** The call with its arguments checked; a fresh result goes past the afterToolCall hooks before it is kept. */
  async function checkedRun(
    tool: NonNullable<ReturnType<ToolRegistry['get']>>,
    args: Record<string, unknown>,
    conversationId: string | undefined,
    /** Whose conversation calls, when the call says (a local activity); else the conversation is asked. */
    owner?: string,
  ): Promise<HookedOutcome> {
    const name = tool.name;
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      return {
        status: 'invalid_input',
        problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`),
        missing: parsed.error.issues
          .filter((i) => i.code === 'invalid_type' && i.input === undefined)
          .map((i) => i.path.join('.')),
      };
    }
    // A tool that changes state runs once per call, however often Temporal retries the activity. Its record is
    // what the hooks let through, so a retry answers as the first attempt did (their decisions are not repeated).
    const key = callKey();
    const done = tool.readOnly ? undefined : recordedEffect(ctx.store, key);
    if (done) return { status: 'ok', result: done.result, ...(done.stored ? { stored: done.stored } : {}) };
    let ran: ToolOutcome;
    try {
      ran = {
        status: 'ok',
        result: await whileHeartbeating(async (signal) => tool.run(parsed.data, { ...ctx, conversationId, signal })),
      };
    } catch (err) {
      // A domain "no" is an answer for the LLM; anything else is retried by Temporal, then reported.
      if (!(err instanceof ToolError || err instanceof z.ZodError)) throw err;
      ran = { status: 'tool_error', error: err.message };
    }
    // Redacted (or withheld) before anything keeps it: the blob store, the effect ledger, history.
    const after = await afterToolCall(hooks, { tool: name }, args, ran);
    if (ran.status !== 'ok') return withDecisions(after.outcome, after.decisions);
    // Too big for history: kept whole in the blob store (idempotent by content), before the effect is recorded.
    const keeper = { check, maxChars: limits.maxToolResultChars, tool: name, ...(owner ? { owner } : {}) };
    const outcome = await keepOutcome(after.outcome, keeper);
    // A read-only call changed nothing: no write. Otherwise the effect and its record go to disk together.
    if (!tool.readOnly) {
      if (outcome.status === 'ok') recordEffect(ctx.store, key, name, outcome.result, ctx.now(), outcome.stored);
      ctx.store.persist();
    }
    return withDecisions(outcome, after.decisions);
  }
}
