// Endpoints on the activity side: MCP calls over the worker's session pool, HTTP API calls (apis/), and catalog
// descriptions for clients.
import { ApplicationFailure } from '@temporalio/activity';
import { callApi, RetryableHttpError } from '../endpoints/http/http-call';
import { idempotencyKey } from '../tools/idempotency';
import type { McpDiscovery } from '../endpoints/catalog';
import { callMcpTool } from '../endpoints/mcp/call';
import { whileHeartbeating } from './heartbeat';
import { DEFAULT_LIMITS, type Limits } from './limits';
import type { Usage } from '../core/types';
import type { McpPool } from '../endpoints/mcp/pool';
import type { McpActivities } from '../core/activity-types';
import { EndpointFeaturesReader } from '../endpoints/mcp/endpoint-features';
import { capContent } from '../core/tool-content';
import { conversationHost, type ToolQuestionDeps } from './tool-questions';
import { toolPipeline, type CallTool } from './tool-pipeline';

export interface McpDeps {
  discovery: McpDiscovery;
  pool: McpPool;
  /** What answers a server's questions and sampling requests during a call (tool-questions.ts). */
  questions?: ToolQuestionDeps;
}

export function createMcpActivities(
  { discovery, pool, questions = {} }: McpDeps,
  callTool: CallTool = toolPipeline({}),
  limits: Limits = DEFAULT_LIMITS,
): McpActivities {
  const features = new EndpointFeaturesReader(discovery, pool);
  return {
    async callMcpTool(given) {
      const { name, ref, owner, goalId } = given;
      let spent: Usage | undefined;
      const call = { tool: name, args: given.args, owner, goalId, observed: { tool: ref.tool, endpoint: ref.server } };
      const outcome = await callTool(call, async (args) => {
        const input = { ...given, args };
        const endpoint = (await discovery.current()).definitions.get(name)?.endpoint;
        const host = conversationHost(questions, {
          tool: name,
          server: ref.server,
          sampling: endpoint?.entry.sampling ?? 'ask',
          goalId,
          overBudget: input.overBudget,
          userConversation: input.userConversation,
        });
        try {
          return { outcome: await whileHeartbeating((signal) => callMcpTool(discovery, pool, input, signal, host)) };
        } finally {
          spent = host.spent();
        }
      });
      return { ...outcome, ...(spent ? { spent } : {}) };
    },
    callHttpTool: ({ name, ref, args, owner, goalId }) =>
      callTool(
        { tool: name, args, owner, goalId, observed: { tool: ref.operation, endpoint: ref.api } },
        async (args) => {
          // The catalog the turn saw: a call never waits on a discovery.
          const call = (await discovery.current()).operations.get(name);
          if (!call || call.operation.id !== ref.operation)
            return {
              final: { status: 'tool_error', error: `The HTTP API "${ref.api}" no longer offers "${ref.operation}".` },
            };
          try {
            return {
              outcome: await whileHeartbeating((signal) =>
                callApi(call, args, { idempotencyKey: idempotencyKey(name), signal }),
              ),
            };
          } catch (err) {
            // Worth another attempt (an idempotent call's 5xx or timeout): Temporal retries with backoff.
            if (err instanceof RetryableHttpError) throw ApplicationFailure.retryable(err.message, 'HttpRetryable');
            throw err;
          }
        },
      ),
    describeEndpointFeatures: ({ endpoint, owner }) => features.describe(endpoint, owner),
    readResource: async (ref) => {
      const read = await features.read(ref);
      return { ...read, contents: capContent(read.contents, limits.maxToolResultChars) as typeof read.contents };
    },
    getPrompt: (ref) => features.prompt(ref),
    async describeCatalog() {
      const { version, endpoints, registryError, tools } = await discovery.catalog();
      return { catalog: { version, endpoints, registryError }, tools };
    },
  };
}
