// The catch-all activity: a native tool runs as an activity whose type is the tool's name, so the Temporal UI
// and history show what ran, while one function dispatches to the handler through the tool pipeline.
import { activityInfo, ApplicationFailure } from '@temporalio/activity';
import { z } from 'zod';
import { ToolError, type ToolContext } from '../tools/define-tool';
import { recordedEffect, recordEffect } from '../tools/effect-ledger';
import { whileHeartbeating } from './heartbeat';
import { callKey } from '../tools/idempotency';
import type { ToolRegistry } from '../tools/tool-registry';
import { FailureTypes, type NativeToolCall } from '../core/activity-types';
import type { ToolOutcome } from '../core/types';
import type { HookedOutcome } from '../core/hooks';
import { toolPipeline, type CallTool, type Ran } from './tool-pipeline';

type NativeTool = NonNullable<ReturnType<ToolRegistry['get']>>;

export function createToolDispatcher(tools: ToolRegistry, ctx: ToolContext, callTool: CallTool = toolPipeline({})) {
  return async function runNativeTool(args: Record<string, unknown>, call?: NativeToolCall): Promise<HookedOutcome> {
    const info = activityInfo();
    const name = info.activityType;
    const tool = tools.get(name);
    if (!tool) {
      throw ApplicationFailure.nonRetryable(`No native tool named "${name}" on this worker.`, FailureTypes.UnknownTool);
    }
    const conversationId = info.workflowExecution?.workflowId;
    return callTool({ tool: name, args: args ?? {}, owner: call?.owner, goalId: call?.goalId }, (checked) =>
      run(tool, checked, conversationId),
    );
  };

  /** The call with its arguments checked, run once however often Temporal retries it when it changes state. */
  async function run(tool: NativeTool, args: Record<string, unknown>, conversationId?: string): Promise<Ran> {
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      return {
        final: {
          status: 'invalid_input',
          problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`),
          missing: parsed.error.issues
            .filter((i) => i.code === 'invalid_type' && i.input === undefined)
            .map((i) => i.path.join('.')),
        },
      };
    }
    // A retry answers as the first attempt did, from its record: what the hooks let through, as it was kept (their
    // decisions are not repeated).
    const key = callKey();
    const done = tool.readOnly ? undefined : recordedEffect(ctx.store, key);
    if (done) return { final: { status: 'ok', result: done.result, ...(done.stored ? { stored: done.stored } : {}) } };
    let outcome: ToolOutcome;
    try {
      outcome = {
        status: 'ok',
        result: await whileHeartbeating(async (signal) => tool.run(parsed.data, { ...ctx, conversationId, signal })),
      };
    } catch (err) {
      // A domain "no" is an answer for the LLM; anything else is retried by Temporal, then reported.
      if (!(err instanceof ToolError || err instanceof z.ZodError)) throw err;
      return { outcome: { status: 'tool_error', error: err.message } };
    }
    // A read-only call changed nothing: no write. Otherwise the effect and its record go to disk together, once the
    // result is kept (in the blob store when too big for history).
    if (tool.readOnly) return { outcome };
    return {
      outcome,
      settle: (kept) => {
        if (kept.status === 'ok') recordEffect(ctx.store, key, tool.name, kept.result, ctx.now(), kept.stored);
        ctx.store.persist();
      },
    };
  }
}
