// The failure types the activities raise, apart from the activities' interfaces so that what names a retry policy
// (core/run-code.ts, core/read-file.ts, the activity stubs) can import them without importing those.
/** Failure types the activities raise, named once so retry policies and the workflow agree. */
export const FailureTypes = {
  LlmAuth: 'LlmAuth',
  LlmMisconfigured: 'LlmMisconfigured',
  LlmBadRequest: 'LlmBadRequest',
  LlmRateLimited: 'LlmRateLimited',
  LlmUnavailable: 'LlmUnavailable',
  UnknownGoal: 'UnknownGoal',
  UnknownTool: 'UnknownTool',
  Misconfigured: 'Misconfigured',
  McpUnavailable: 'McpUnavailable',
  /** A resource or prompt asked of an endpoint the registry lacks, or that cannot serve (not retried). */
  UnknownEndpoint: 'UnknownEndpoint',
  /** A client's request the worker refuses in words (a memory another owner's, a limit): said to the client as is. */
  NotFound: 'NotFound',
  Refused: 'Refused',
  Invalid: 'Invalid',
} as const;
