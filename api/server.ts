// Serves the API and the web chat (dist/web, built by `npm run build`) on one port. Used by `npm start` (beside
// the worker, sharing its in-process stream bus) and by `npm run api` (alone, the bus in Redis).
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { PROJECT_ROOT } from '../tools/project-root';
import { createApi, type ApiDeps } from './app';
import type { ApiSettings } from './api-settings';
import type { RunWatches } from './run-watch';

export const WEB_ROOT = path.join(PROJECT_ROOT, 'dist', 'web');

export interface RunningApi {
  url: string;
  /** Whether the web chat is served (dist/web was built). */
  web: boolean;
  /** The live run views' watches: what they have cost so far (the benchmark reads `counters`). */
  runs?: RunWatches;
  close(): Promise<void>;
}

export async function startApi(
  deps: Omit<ApiDeps, 'settings'> & { settings: ApiSettings; webRoot?: string },
): Promise<RunningApi> {
  const { app, feeds, runs, mcp } = createApi(deps);
  const webRoot = deps.webRoot ?? WEB_ROOT;
  const web = existsSync(path.join(webRoot, 'index.html'));
  if (web) {
    app.use('/*', serveStatic({ root: webRoot }));
    // The chat is one page: any other path that is not the API gets it.
    app.get('*', serveStatic({ root: webRoot, path: 'index.html' }));
  } else {
    app.get('/', (c) =>
      c.text(
        'The web chat is not built: run npm run build, then restart. The API is under /api (see /api/openapi.json).\n',
      ),
    );
  }
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: deps.settings.port, hostname: deps.settings.host }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = deps.settings.host.includes(':') ? `[${deps.settings.host}]` : deps.settings.host;
  return {
    url: `http://${host}:${port}`,
    web,
    runs,
    close: async () => {
      feeds.close();
      runs.close();
      // An MCP tool call may wait on its client (an elicitation): closing the sessions ends those waits too.
      await mcp.closeAll();
      // Event streams stay open until their clients leave: close them rather than wait.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
