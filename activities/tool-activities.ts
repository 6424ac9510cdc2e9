// The catch-all activity: a native tool runs as an activity whose type is the tool's name, so the Temporal UI
// and history show what ran, while one function dispatches to the handler.
import { activityInfo, ApplicationFailure } from '@temporalio/activity';
import { z } from 'zod';
import { ToolError, type ToolContext } from '../tools/define-tool';
import { recordedEffect, recordEffect } from '../tools/effect-ledger';
import { whileHeartbeating } from './heartbeat';
import { capOutcome, DEFAULT_LIMITS, type Limits } from './limits';
import { callKey } from '../tools/idempotency';
import type { ToolRegistry } from '../tools/tool-registry';
import { FailureTypes } from '../core/activity-types';
import type { ToolOutcome } from '../core/types';
import { observeToolCall } from './call-telemetry';

export function createToolDispatcher(tools: ToolRegistry, ctx: ToolContext, limits: Limits = DEFAULT_LIMITS) {
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
    if (done) return { status: 'ok', result: done.result };
    try {
      const ran = await whileHeartbeating(async (signal) =>
        tool.run(parsed.data, { ...ctx, conversationId: info.workflowExecution?.workflowId, signal }),
      );
      const outcome = capOutcome({ status: 'ok', result: ran }, limits.maxToolResultChars);
      // A read-only call changed nothing: no write. Otherwise the effect and its record go to disk together.
      if (!tool.readOnly) {
        if (outcome.status === 'ok') recordEffect(ctx.store, key, name, outcome.result, ctx.now());
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
