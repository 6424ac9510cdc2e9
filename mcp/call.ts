// Calling an MCP tool: validate the args against its inputSchema, call over the pooled session, and turn what
// comes back into a tool outcome. Tool failures are results (isError, protocol errors from the server); transport
// failures are retried by Temporal, except for a call that may already have started a non-idempotent tool.
import { ApplicationFailure } from '@temporalio/activity';
import { McpError, ErrorCode, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { outcomeOf } from './tool-result';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { idempotencyKey } from '../tools/idempotency';
import { FailureTypes } from '../core/activity-types';
import { mayHaveRun } from '../core/failures';
import type { McpToolRef, ToolOutcome } from '../core/types';
import type { McpDiscovery } from './catalog';
import type { Lease, McpPool } from './pool';
import type { ResolvedEndpoint } from './endpoint-registry';

const validator = new AjvJsonSchemaValidator();
/** Connection attempts for a call that gets a single activity attempt (not idempotent). */
const CONNECT_ATTEMPTS = 3;
const validators = new Map<string, ReturnType<typeof validator.getValidator>>();

export interface McpCallInput {
  /** The LLM-facing name, `<server>__<tool>`. */
  name: string;
  ref: McpToolRef;
  args: Record<string, unknown>;
}

/** `signal` aborts the call when the user cancels the turn: the SDK then sends the server `notifications/cancelled`. */
export async function callMcpTool(
  discovery: McpDiscovery,
  pool: McpPool,
  input: McpCallInput,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const { ref, args } = input;
  // The catalog the turn saw: a call never waits on a discovery.
  const catalog = await discovery.current();
  const found = catalog.definitions.get(input.name);
  if (!found || found.tool.name !== ref.tool || found.endpoint.name !== ref.server) {
    const endpoint = catalog.endpoints.find((e) => e.name === ref.server);
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

  const lease = await connect(pool, endpoint, ref);
  if ('status' in lease) return lease;
  try {
    // A server that supports it can de-duplicate with the key: it is the same on every attempt of this call.
    const params = { name: tool.name, arguments: args, _meta: { idempotencyKey: idempotencyKey('mcp') } };
    const result = (await lease.client.callTool(params, undefined, {
      timeout: ref.timeoutMs,
      signal,
    })) as CallToolResult;
    return outcomeOf(result);
  } catch (err) {
    // Aborted by the cancel (the SDK wraps it in an McpError): the activity reports it as cancelled.
    if (signal?.aborted) throw signal.reason;
    const message = (err as Error).message;
    // The server answered with a JSON-RPC error (bad params, unknown tool): that is the tool saying no.
    if (err instanceof McpError && err.code !== ErrorCode.RequestTimeout && err.code !== ErrorCode.ConnectionClosed) {
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
    lease.release();
  }
}

/**
 * Connecting sends nothing to the tool, so it is always safe to retry: through Temporal for idempotent tools, and
 * here for the others, which get a single activity attempt (a retry could re-send the call itself).
 */
async function connect(pool: McpPool, endpoint: ResolvedEndpoint, ref: McpToolRef): Promise<Lease | ToolOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.acquire(endpoint, ref.timeoutMs);
    } catch (err) {
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
