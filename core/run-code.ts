// RunCode: a short pure script for a one-off computation, run in the worker's sandbox (activities/sandbox/); the
// script and its answer stay in the transcript as the call and its result. It calls no tools: those stay durable steps.
import { FailureTypes } from './failure-types';
import { builtinRun } from './builtin-run';

export const RUN_CODE = 'RunCode';

export const runCode = builtinRun({
  spec: {
    name: RUN_CODE,
    description:
      'Compute something exactly with a short JavaScript function body (sums, date arithmetic without Date, parsing ' +
      'a pasted table, counting): `input` holds the data you pass; `return` a JSON value. It runs in a sandbox with ' +
      'no network, files, clock, randomness or tools, and stops after 1 s of CPU. The user sees the code and the result.',
    category: 'agents',
    inputSchema: {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 1, description: 'The body of function (input) { … }: end with return' },
        input: { description: 'The data the code works on (any JSON value)' },
      },
      required: ['code'],
      additionalProperties: false,
    },
    approval: 'never',
    readOnly: true,
    kind: 'builtin',
  },
  activity: 'runCode',
  // The sandbox stops a script after its CPU limit (SANDBOX_TIMEOUT_MS, at most 5 s), so an attempt that takes 30 s
  // lost its worker; pure code is safe to run again elsewhere.
  options: {
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.Misconfigured] },
  },
  patch: 'run-code',
  input: (call): { code: string; input?: unknown } => ({ code: String(call.args.code), input: call.args.input }),
});
