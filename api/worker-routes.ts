// The routes that ask the worker rather than a conversation: health (does the API reach Temporal), the agents it
// offers, the MCP endpoints and tools as it sees them (an endpoint's resources and prompts, a resource read), the whole catalog as one Markdown document, and the made tools
// of its tools folder (listed, disabled, enabled, removed). With ?stats=1 the agents, tools and endpoints come as the
// registry's rows, each with its usage read from Temporal (client/listings.ts).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import type { AgentClient } from '../client/agent-client';
import { catalogMarkdown, catalogSnapshot } from '../client/catalog-doc';
import { Listings } from '../client/listings';
import type { ApiEnv } from './auth';
import * as S from './schemas';
import { errors, json } from './schemas';

const withStats = (q: { stats?: string }) => q.stats === '1' || q.stats === 'true';

/** `listings`: one per API process, so closed runs are folded once (its figures come from Temporal, not from it). */
export function addWorkerRoutes(app: OpenAPIHono<ApiEnv>, agents: AgentClient, listings = new Listings(agents)): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/health',
      summary: 'Whether the API reaches Temporal',
      responses: { 200: json(S.Health, 'Reachable'), 503: json(S.Health, 'Temporal unreachable') },
    }),
    async (c) => {
      let reachable = true;
      try {
        await agents.client.workflowService.getSystemInfo({});
      } catch {
        reachable = false;
      }
      const health = {
        ok: reachable,
        temporal: { reachable, namespace: agents.client.options.namespace, taskQueue: agents.taskQueue },
      };
      return c.json(health, reachable ? 200 : 503);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/agents',
      summary: 'The agents the worker offers; with stats=1, each with its source, tools, delegates and usage',
      request: { query: S.StatsQuery },
      responses: { 200: json(S.Anything, 'AgentsDescription; with stats=1, AgentListing'), ...errors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(withStats(q) ? await listings.agents(q.since) : await agents.agents(), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/endpoints',
      summary: 'The MCP endpoints as the worker sees them; with stats=1, each with its calls and errors by hour',
      request: { query: S.StatsQuery },
      responses: { 200: json(S.Anything, 'CatalogSummary; with stats=1, EndpointListing'), ...errors },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(withStats(q) ? await listings.endpoints(q.since) : (await agents.catalog()).catalog, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/endpoints/{name}/resources',
      summary: "An MCP endpoint's resources and resource templates",
      request: { params: S.EndpointParam },
      responses: { 200: json(S.Anything, '{ resources, templates, unsupported }'), ...errors },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const { resources, templates, unsupported } = await agents.endpointFeatures(
        name,
        c.get('caller').owner ?? undefined,
      );
      return c.json({ resources, templates, unsupported }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/endpoints/{name}/prompts',
      summary: "An MCP endpoint's prompts, with their arguments",
      request: { params: S.EndpointParam },
      responses: { 200: json(S.Anything, '{ prompts, unsupported }'), ...errors },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      const { prompts, unsupported } = await agents.endpointFeatures(name, c.get('caller').owner ?? undefined);
      return c.json({ prompts, unsupported }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/endpoints/{name}/resource',
      summary: 'A resource of an MCP endpoint, read by the worker (text, or binary content by type and size)',
      request: { params: S.EndpointParam, query: S.ResourceQuery },
      responses: { 200: json(S.Anything, 'ResourceRead'), ...errors },
    }),
    async (c) =>
      c.json(
        await agents.readResource({
          endpoint: c.req.valid('param').name,
          uri: c.req.valid('query').uri,
          owner: c.get('caller').owner ?? undefined,
        }),
        200,
      ),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/tools',
      summary: 'The tools of a goal (all MCP tools without one); with stats=1, every tool with its kind and usage',
      request: { query: S.ToolsQuery },
      responses: {
        200: json(z.union([z.array(S.Anything), S.Anything]), 'ToolSpec[]; with stats=1, ToolListing'),
        ...errors,
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      if (!withStats(q)) return c.json((await agents.catalog(q.goal)).tools, 200);
      const found = await listings.tools(q.since);
      return c.json(q.goal ? { ...found, tools: found.tools.filter((t) => t.agents.includes(q.goal!)) } : found, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/made-tools',
      summary: 'The made tools (CreateTool): every version, disabled and broken ones too, with code and provenance',
      request: { query: S.MadeToolsQuery },
      responses: { 200: json(z.array(S.MadeTool), 'MadeTool[]'), ...errors },
    }),
    async (c) =>
      c.json(c.req.valid('query').usage === 'true' ? await listings.madeTools() : await agents.madeTools(), 200),
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/made-tools/{name}/{action}',
      summary: 'Disable, enable or remove every version of a made tool (an admin key, when API keys are set)',
      request: { params: S.MadeToolAction },
      responses: {
        200: json(S.MadeToolManaged, 'The versions left'),
        ...errors,
        403: json(S.ErrorBody, 'Not an admin key'),
        404: json(S.ErrorBody, 'No made tool of that name'),
      },
    }),
    async (c) => {
      // Made tools are the worker's, shared by every user's agents: one user's key must not take them from the rest.
      if (!c.get('caller').admin)
        throw new HTTPException(403, {
          message: 'Only an admin key (API_ADMIN_KEYS) may disable, enable or remove made tools.',
        });
      const { name, action } = c.req.valid('param');
      return c.json({ name, action, versions: await agents.manageMadeTool(action, name) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/catalog.md',
      summary: 'The catalog as a Markdown document: agents, tools with their arguments, source and approval, endpoints',
      responses: { 200: { description: 'Markdown', content: { 'text/markdown': { schema: z.string() } } }, ...errors },
    }),
    async (c) => {
      const doc = catalogMarkdown(await catalogSnapshot(agents), {
        taskQueue: agents.taskQueue,
        generatedAt: new Date(),
      });
      return c.body(doc, 200, { 'content-type': 'text/markdown; charset=utf-8' });
    },
  );
}
