// The sandbox as activities: RunCode's one-off scripts, and the made tools (CreateTool's draft check and write, their
// calls, and the registry's housekeeping). What code returns is the call's result; what it does wrong (a throw, an
// endless loop, too much memory or output) is a tool error the model reads, with the line.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { FailureTypes, type CodeActivities } from '../../core/activity-types';
import type { MadeTools } from '../../tools/made/made-tools';
import { DEFAULT_SANDBOX_LIMITS, runSandboxed, type SandboxLimits } from '../../tools/made/sandbox';
import { observeToolCall } from '../call-telemetry';
import { whileHeartbeating } from '../heartbeat';
import type { HookRunner } from '../hooks/hook-runner';
import { afterToolCall, beforeToolCall, withDecisions } from '../hooks/tool-hooks';

export interface CodeDeps {
  limits?: SandboxLimits;
  /** The made tools' registry (TOOLS_DIR); absent, CreateTool is refused. */
  made?: MadeTools;
  /** The model that drafts tools (`provider:model`), for their provenance. */
  modelName?: string;
  /** The hooks around tool calls (HOOKS: beforeToolCall, afterToolCall): made tools' calls go past them too. */
  hooks?: HookRunner;
}

export function createCodeActivities({
  limits = DEFAULT_SANDBOX_LIMITS,
  made,
  modelName,
  hooks,
}: CodeDeps = {}): CodeActivities {
  const registry = () => {
    if (made) return made;
    throw ApplicationFailure.nonRetryable(
      'This worker has no tools folder (TOOLS_DIR) for made tools.',
      FailureTypes.Misconfigured,
    );
  };
  return {
    async runCode({ code, input }) {
      const result = await runSandboxed(code, input, limits);
      return result.ok
        ? { status: 'ok', result: { output: result.output, ms: result.ms } }
        : { status: 'tool_error', error: result.error };
    },

    async checkToolDraft(draft) {
      const { problems, runs } = await whileHeartbeating(() => registry().check(draft));
      return { problems, runs };
    },

    async createTool({ draft, request, callId }) {
      const tools = registry();
      const createdBy = Context.current().info.workflowExecution?.workflowId ?? 'unknown';
      const provenance = { createdBy, callId, createdAt: new Date().toISOString(), request, model: modelName };
      const created = await whileHeartbeating(() => tools.create(draft, provenance));
      if ('problems' in created) return created;
      // Exactly the version this call wrote (a newer one may have arrived since).
      const spec = tools.specAt(created.name, created.version);
      if (!spec) return { problems: [`${created.name} v${created.version} was written but fails its check`] };
      return { spec, file: created.file };
    },

    async runMadeTool({ name, version, args }) {
      return observeToolCall(name, undefined, async () => {
        const before = await beforeToolCall(hooks, { tool: name }, args);
        if (before.stopped) return before.stopped;
        const after = await afterToolCall(
          hooks,
          { tool: name },
          before.args,
          await registry().run(name, version, before.args),
        );
        return withDecisions(after.outcome, [...before.decisions, ...after.decisions]);
      });
    },

    async describeMadeTools() {
      const tools = registry();
      await tools.refresh();
      return tools.list();
    },

    async manageMadeTool({ action, name }) {
      try {
        return await registry().manage(action, name);
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, FailureTypes.UnknownTool);
      }
    },
  };
}
