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
import { FailureTypes } from '../core/activity-types';
import type { ToolOutcome } from '../core/types';
import { observeToolCall } from './call-telemetry';

export function createToolDispatcher(
  tools: ToolRegistry,
  ctx: ToolContext,
  limits: Limits = DEFAULT_LIMITS,
  check?: ClaimCheck,
) {
  return async function runNativeTool(args: Record<string, unknown>): Promise<ToolOutcome> {
    return observeToolCall(activityInfo().activityType, undefined, () => run(args));
  };

  async function run(args: Record<string, unknown>): Promise<ToolOutcome> {
    const info = activityInfo();
    const name = info.activityType;
    const tool = tools.get(name);
    if (!tool) {
      throw ApplicationFailure.nonRetryable(`No native tool named "${name}" on this worker.`, FailureTypes.UnknownTool);
    }
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) {
      return {
        status: 'invalid_input',
        problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`),
        missing: parsed.error.issues
          .filter((i) => i.code === 'invalid_type' && i.input === undefined)
          .map((i) => i.path.join('.')),
      };
    }
    // A tool that changes state runs once per call, however often Temporal retries the activity.
    const key = callKey();
    const done = tool.readOnly ? undefined : recordedEffect(ctx.store, key);
    if (done) return { status: 'ok', result: done.result, ...(done.stored ? { stored: done.stored } : {}) };
    try {
      const ran = await whileHeartbeating(async (signal) =>
        tool.run(parsed.data, { ...ctx, conversationId: info.workflowExecution?.workflowId, signal }),
      );
      // Too big for history: kept whole in the blob store (idempotent by content), before the effect is recorded.
      const outcome = await keepOutcome(
        { status: 'ok', result: ran },
        { check, maxChars: limits.maxToolResultChars, tool: name },
      );
      // A read-only call changed nothing: no write. Otherwise the effect and its record go to disk together.
      if (!tool.readOnly) {
        if (outcome.status === 'ok') recordEffect(ctx.store, key, name, outcome.result, ctx.now(), outcome.stored);
        ctx.store.persist();
      }
      return outcome;
    } catch (err) {
      // A domain "no" is an answer for the LLM; anything else is retried by Temporal, then reported.
      if (err instanceof ToolError || err instanceof z.ZodError) return { status: 'tool_error', error: err.message };
      throw err;
    }
  }
}
