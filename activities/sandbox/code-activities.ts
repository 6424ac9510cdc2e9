// The sandbox as activities: RunCode's one-off scripts. What the code returns is the call's result; what it does
// wrong (a throw, an endless loop, too much memory or output) is a tool error the model reads, with the line.
import type { CodeActivities } from '../../core/activity-types';
import { DEFAULT_SANDBOX_LIMITS, runSandboxed, type SandboxLimits } from './sandbox';

export function createCodeActivities(limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): CodeActivities {
  return {
    async runCode({ code, input }) {
      const result = await runSandboxed(code, input, limits);
      return result.ok
        ? { status: 'ok', result: { output: result.output, ms: result.ms } }
        : { status: 'tool_error', error: result.error };
    },
  };
}
