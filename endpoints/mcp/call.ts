// Calling an MCP tool: validate the args against its inputSchema, call over the pooled session, and turn what
// comes back into a tool outcome. Tool failures are results (isError, protocol errors from the server); transport
// failures are retried by Temporal, except for a call that may already have started a non-idempotent tool.
import { ApplicationFailure } from '@temporalio/activity';
import { McpError, ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { outcomeOf } from './tool-result';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { idempotencyKey } from '../../tools/idempotency';
import { FailureTypes, type McpCallRequest } from '../../core/activity-types';
import { mayHaveRun } from '../../core/failures';
import type { McpToolRef, ToolOutcome } from '../../core/types';
import type { McpDiscovery } from '../catalog';
import { CallDeadline, NO_HOST, type CallHost } from './call-host';
import type { Lease, McpPool } from './pool';
import type { ResolvedEndpoint } from '../endpoint-registry';
import { NeedsConnecting, needsConnectingMessage } from './oauth/provider';

const validator = new AjvJsonSchemaValidator();
/** Connection attempts for a call that gets a single activity attempt (not idempotent). */
const CONNECT_ATTEMPTS = 3;
const validators = new Map<string, ReturnType<typeof validator.getValidator>>();

/** A call as the workflow asks for it (core/activity-types.ts). */
export type McpCallInput = McpCallRequest;

/**
 * `signal` aborts the call when the user cancels the turn: the SDK then sends the server `notifications/cancelled`.
 * `host` answers what the server asks during the call (the user, our model) and hears its logs and progress.
 */
export async function callMcpTool(
  discovery: McpDiscovery,
  pool: McpPool,
  input: McpCallInput,
  signal?: AbortSignal,
  host: CallHost = NO_HOST,
): Promise<ToolOutcome> {
  const { ref, args } = input;
  // The catalog the turn saw: a call never waits on a discovery.
  const catalog = await discovery.current();
  const found = catalog.definitions.get(input.name);
  if (!found || found.tool.name !== ref.tool || found.endpoint.name !== ref.server) {
    const endpoint = catalog.endpoints.find((e) => e.name === ref.server);
    if (endpoint?.status === 'needs_connecting')
      return { status: 'tool_error', error: needsConnectingMessage(ref.server) };
    const why = !endpoint
      ? 'is no longer in the registry'
      : endpoint.status !== 'ok'
        ? `is ${endpoint.status}${endpoint.error ? ` (${endpoint.error})` : ''}`
        : `no longer offers "${ref.tool}"`;
    return { status: 'tool_error', error: `The MCP server "${ref.server}" ${why}.` };
  }
  const { endpoint, tool } = found;
  const validate = validatorFor(`${endpoint.key}/${tool.name}`, tool.inputSchema);
  const check = validate(args);
  if (!check.valid) return { status: 'invalid_input', problems: [check.errorMessage], missing: [] };

  const deadline = new CallDeadline(ref.timeoutMs);
  // The host the server talks to: the time limit stops while the user is asked and restarts on progress.
  const attended = deadline.around(host);
  const lease = await connect(pool, endpoint, ref, attended, input.owner);
  if ('status' in lease) return lease;
  deadline.restart(); // the time limit is the call's, from when it has a session
  try {
    // A server that supports it can de-duplicate with the key: it is the same on every attempt of this call.
    const params = { name: tool.name, arguments: args, _meta: { idempotencyKey: idempotencyKey('mcp') } };
    const result = (await lease.client.callTool(params, undefined, {
      // Our deadline, not the SDK's: it stops while the user is asked something (see CallDeadline).
      timeout: 2 ** 31 - 1,
      signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
      onprogress: (progress) => attended.progress(progress),
    })) as CallToolResult;
    return outcomeOf(result, tool); // the definition: its outputSchema checks the structured content
  } catch (err) {
    // Aborted by the cancel (the SDK wraps it in an McpError): the activity reports it as cancelled.
    if (signal?.aborted) throw signal.reason;
    // The owner's grant was refused (revoked, expired beyond refresh): the server turned the call away unread.
    if (err instanceof NeedsConnecting) {
      lease.discard();
      return { status: 'tool_error', error: err.message };
    }
    const message = deadline.expired ? `no answer within ${ref.timeoutMs} ms` : (err as Error).message;
    // The server answered with a JSON-RPC error (bad params, unknown tool): that is the tool saying no.
    const transportFailure =
      err instanceof McpError && [ErrorCode.RequestTimeout, ErrorCode.ConnectionClosed].includes(err.code);
    if (err instanceof McpError && !transportFailure && !deadline.expired) {
      return { status: 'tool_error', error: `MCP error ${err.code}: ${message}` };
    }
    lease.discard();
    if (ref.idempotent) {
      throw ApplicationFailure.retryable(
        `MCP call ${ref.server}/${ref.tool} failed: ${message}`,
        FailureTypes.McpUnavailable,
      );
    }
    // It may have started: re-running a destructive or non-idempotent tool could do the thing twice.
    return mayHaveRun(ref.server, ref.tool, message);
  } finally {
    deadline.clear();
    lease.release();
  }
}

/**
 * Connecting sends nothing to the tool, so it is always safe to retry: through Temporal for idempotent tools, and
 * here for the others, which get a single activity attempt (a retry could re-send the call itself).
 */
async function connect(
  pool: McpPool,
  endpoint: ResolvedEndpoint,
  ref: McpToolRef,
  host: CallHost,
  owner: string | undefined,
): Promise<Lease | ToolOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.acquire(endpoint, ref.timeoutMs, host, owner);
    } catch (err) {
      // Not connected by this owner: nothing was sent, and retrying will not connect it.
      if (err instanceof NeedsConnecting) return { status: 'tool_error', error: err.message };
      const failure = `MCP server "${ref.server}": ${(err as Error).message}`;
      if (ref.idempotent) throw ApplicationFailure.retryable(failure, FailureTypes.McpUnavailable);
      if (attempt >= CONNECT_ATTEMPTS)
        return { status: 'tool_error', error: `${failure}. The call was not sent, so it did not run.` };
      await new Promise((r) => setTimeout(r, 500 * 2 ** (attempt - 1)));
    }
  }
}

function validatorFor(key: string, schema: unknown) {
  let v = validators.get(key);
  if (!v) {
    try {
      v = validator.getValidator(schema as never);
    } catch {
      v = (input: unknown) => ({ valid: true, data: input, errorMessage: undefined }) as never; // uncompilable schema: the server validates
    }
    validators.set(key, v);
  }
  return v;
}
