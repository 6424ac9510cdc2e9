// The sandbox as activities: RunCode's one-off scripts, and the made tools (CreateTool's draft check and write, their
// calls, and the registry's housekeeping). What code returns is the call's result; what it does wrong (a throw, an
// endless loop, too much memory or output) is a tool error the model reads, with the line.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { FailureTypes, type CodeActivities } from '../../core/activity-types';
import type { BuiltinRunActivities } from '../../core/builtin-runs';
import type { MadeTools } from '../../tools/made/made-tools';
import { DEFAULT_SANDBOX_LIMITS, runSandboxed, type SandboxLimits } from '../../tools/made/sandbox';
import { whileHeartbeating } from '../heartbeat';
import { toolPipeline, type CallTool } from '../tool-pipeline';

export interface CodeDeps {
  limits?: SandboxLimits;
  /** The made tools' registry (TOOLS_DIR); absent, CreateTool is refused. */
  made?: MadeTools;
  /** The model that drafts tools (`provider:model`), for their provenance. */
  modelName?: string;
}

export function createCodeActivities(
  { limits = DEFAULT_SANDBOX_LIMITS, made, modelName }: CodeDeps = {},
  /** The tool pipeline: a made tool's call goes the way every tool call does (hooks, claim check). */
  callTool: CallTool = toolPipeline({}),
): CodeActivities & Pick<BuiltinRunActivities, 'runCode' | 'checkToolDraft' | 'createTool'> {
  const registry = () => {
    if (made) return made;
    throw ApplicationFailure.nonRetryable(
      'This worker has no tools folder (TOOLS_DIR) for made tools.',
      FailureTypes.Misconfigured,
    );
  };
  return {
    /** RunCode: `code` (a function body of `input`); its JSON answer, or the code's error with its line. */
    async runCode({ code, input }) {
      const result = await runSandboxed(code, input, limits);
      return result.ok
        ? { status: 'ok', result: { output: result.output, ms: result.ms } }
        : { status: 'tool_error', error: result.error };
    },

    // CreateTool's check before the user sees the draft (why it cannot be a tool, and its examples' runs), and its
    // write once approved (checked again; the spec of exactly the version written).
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

    runMadeTool: ({ name, version, args, owner, goalId }) =>
      callTool({ tool: name, args, owner, goalId }, async (checked) => ({
        outcome: await registry().run(name, version, checked),
      })),

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
