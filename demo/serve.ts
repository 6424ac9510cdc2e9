// Serving a demo MCP server: Streamable HTTP (stateless: a fresh server and transport per request, optional bearer
// token) or stdio, picked by the command line. Shared by the demo servers so each file is only its tools.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface HttpMcpServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `create()` at http://127.0.0.1:PORT/mcp; `token` requires `Authorization: Bearer <token>`. */
export async function serveMcpOverHttp(create: () => McpServer, port: number, token?: string): Promise<HttpMcpServer> {
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    if (token && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    const server = create();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** `--http [--port N]` serves Streamable HTTP (logging the URL to stderr); otherwise stdio, whose stdout is the protocol. */
export function runFromCommandLine(
  name: string,
  defaultPort: number,
  serveHttp: (port: number) => Promise<HttpMcpServer>,
  create: () => McpServer,
): void {
  const args = process.argv.slice(2);
  if (args.includes('--http')) {
    const port = Number(args[args.indexOf('--port') + 1]) || defaultPort;
    void serveHttp(port).then(({ url }) => console.error(`${name} MCP server on ${url}`));
  } else {
    void create().connect(new StdioServerTransport());
  }
}
