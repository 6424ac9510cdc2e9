// An endpoint's resources, resource templates and prompts, over the worker's session pool (the same sessions its
// tool calls use): listed for clients, a resource read to attach to a message, a prompt got to open a conversation.
// Each answer is for a client, never for history as it is: readers cap what they keep.
import { ApplicationFailure } from '@temporalio/activity';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { FailureTypes } from '../../core/activity-types';
import type { EndpointFeatures, PromptOpening, PromptRef, ResourceRead, ResourceRef } from '../../core/mcp-features';
import { describePart, MEDIA_BYTES_KEPT } from '../../core/tool-content';
import type { McpDiscovery } from '../catalog';
import type { McpPool } from './pool';
import { partOf } from './tool-result';

/** Pages followed per list: a server that paginates past this is listed in part. */
const MAX_PAGES = 20;

export class EndpointFeaturesReader {
  constructor(
    private readonly discovery: McpDiscovery,
    private readonly pool: McpPool,
  ) {}

  async describe(name: string, owner?: string): Promise<EndpointFeatures> {
    return this.withClient(name, owner, async (client, timeout) => {
      const caps = client.getServerCapabilities() ?? {};
      const features: EndpointFeatures = { endpoint: name, resources: [], templates: [], prompts: [], unsupported: [] };
      if (caps.resources) {
        features.resources = await pages(async (cursor) => {
          const got = await client.listResources({ cursor }, { timeout });
          return [
            got.resources.map(({ uri, name, title, description, mimeType, size }) => ({
              uri,
              name,
              title,
              description,
              mimeType,
              size,
            })),
            got.nextCursor,
          ];
        });
        features.templates = await pages(async (cursor) => {
          const got = await client.listResourceTemplates({ cursor }, { timeout });
          return [
            got.resourceTemplates.map(({ uriTemplate, name, title, description, mimeType }) => ({
              uriTemplate,
              name,
              title,
              description,
              mimeType,
            })),
            got.nextCursor,
          ];
        });
      } else features.unsupported.push('resources');
      if (caps.prompts) {
        features.prompts = await pages(async (cursor) => {
          const got = await client.listPrompts({ cursor }, { timeout });
          return [
            got.prompts.map(({ name, title, description, arguments: args = [] }) => ({
              name,
              title,
              description,
              arguments: args.map(({ name, description, required }) => ({ name, description, required })),
            })),
            got.nextCursor,
          ];
        });
      } else features.unsupported.push('prompts');
      return JSON.parse(JSON.stringify(features)) as EndpointFeatures; // plain data: the undefined fields dropped
    });
  }

  async read({ endpoint, uri, owner }: ResourceRef): Promise<ResourceRead> {
    return this.withClient(endpoint, owner, async (client, timeout) => {
      offers(client, endpoint, 'resources');
      const { contents } = await client.readResource({ uri }, { timeout });
      const budget = { left: MEDIA_BYTES_KEPT };
      const parts = contents.map((resource) => partOf({ type: 'resource', resource }, budget));
      return { endpoint, uri, contents: parts as ResourceRead['contents'] };
    });
  }

  async prompt({ endpoint, name, args = {}, owner }: PromptRef): Promise<PromptOpening> {
    return this.withClient(endpoint, owner, async (client, timeout) => {
      offers(client, endpoint, 'prompts');
      const got = await client.getPrompt({ name, arguments: args }, { timeout });
      const messages: PromptOpening['messages'] = [];
      for (const m of got.messages) {
        const text = describePart(partOf(m.content as ContentBlock, { left: 0 }));
        const last = messages.at(-1);
        if (last?.role === m.role) last.text += `\n\n${text}`;
        else messages.push({ role: m.role, text });
      }
      return { endpoint, name, args, ...(got.description ? { description: got.description } : {}), messages };
    });
  }

  /** The endpoint's pooled session for one use; an unknown or failing endpoint is a clear, final failure. */
  private async withClient<T>(
    name: string,
    owner: string | undefined,
    use: (client: Client, timeoutMs: number) => Promise<T>,
  ): Promise<T> {
    const catalog = await this.discovery.catalog();
    const endpoint = catalog.resolved?.get(name);
    if (!endpoint) {
      const status = catalog.endpoints.find((e) => e.name === name);
      const why = !status
        ? `No MCP server "${name}" in the registry (endpoints: ${catalog.endpoints.map((e) => e.name).join(', ') || 'none'}).`
        : status.transport === 'openapi' || status.transport === 'endpoint'
          ? `"${name}" is an HTTP API: it has no resources or prompts.`
          : `The MCP server "${name}" is ${status.status}${status.error ? ` (${status.error})` : ''}.`;
      throw ApplicationFailure.nonRetryable(why, FailureTypes.UnknownEndpoint);
    }
    const timeoutMs = endpoint.entry.timeoutMs;
    const lease = await this.pool.acquire(endpoint, timeoutMs, undefined, owner);
    try {
      return await use(lease.client, timeoutMs);
    } catch (err) {
      if (err instanceof ApplicationFailure) throw err;
      // The server's own no (an unknown URI or prompt, a bad argument): final, in its words. A timeout or a lost
      // connection is the session's fault: it is not used again, and the activity retries.
      const lost = err instanceof McpError && [ErrorCode.RequestTimeout, ErrorCode.ConnectionClosed].includes(err.code);
      if (err instanceof McpError && !lost)
        throw ApplicationFailure.nonRetryable(`${name}: ${err.message}`, FailureTypes.UnknownEndpoint);
      lease.discard();
      throw err;
    } finally {
      lease.release();
    }
  }
}

/** A server without the capability is asked nothing (the SDK would throw a plain error, as if the session broke). */
function offers(client: Client, endpoint: string, what: 'resources' | 'prompts'): void {
  if (!client.getServerCapabilities()?.[what])
    throw ApplicationFailure.nonRetryable(
      `The MCP server "${endpoint}" offers no ${what}.`,
      FailureTypes.UnknownEndpoint,
    );
}

/** Every page of a list, up to MAX_PAGES. */
async function pages<T>(list: (cursor: string | undefined) => Promise<[T[], string | undefined]>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const [items, next] = await list(cursor);
    all.push(...items);
    cursor = next;
    if (!cursor) break;
  }
  return all;
}
