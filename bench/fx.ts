// The demo MCP server fx (demo/fx.ts) as the MCP benchmarks use it: over stdio, converting 100 USD to EUR.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../worker/worker-settings';

const FX_ARGS = ['--require', 'tsx/cjs', 'demo/fx.ts'];
export const FX_COMMAND = `node ${FX_ARGS.join(' ')}`;
/** A registry entry for fx, as the integration tests write it: read-only tools need no approval. */
export const fxEntry = {
  command: process.execPath,
  args: FX_ARGS,
  categories: ['finance'],
  requireApproval: 'destructive',
};
export const CONVERT_ARGS = { amount: 100, from: 'USD', to: 'EUR' };
const CONVERTED = 92;

/** An MCP endpoint registry file (config/mcp_endpoints.json's format) in `dir`; returns its path. */
export function writeRegistry(dir: string, name: string, servers: Record<string, unknown>): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

/** A registry of n fx endpoints, fx1..fxN. */
export function fxRegistry(dir: string, n: number): string {
  return writeRegistry(
    dir,
    `fx-${n}.json`,
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`fx${i + 1}`, fxEntry])),
  );
}

/** Throws unless `value` is fx's answer to CONVERT_ARGS: every way of calling must really have called. */
function checkConverted(where: string, value: unknown): void {
  const converted = (value as { converted?: unknown } | undefined)?.converted;
  if (converted !== CONVERTED)
    throw new Error(`${where}: expected converted ${CONVERTED}, got ${JSON.stringify(value)}`);
}

/** A plain MCP SDK client for fx, not yet connected (connecting spawns the server). */
export function spawnFx(): { client: McpClient; transport: StdioClientTransport } {
  const client = new McpClient({ name: 'bench', version: '0.1.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: FX_ARGS,
    env: getDefaultEnvironment(),
    cwd: PROJECT_ROOT,
    stderr: 'pipe',
  });
  return { client, transport };
}

/** fx convert through the SDK client, checked. */
export async function sdkConvert(client: McpClient): Promise<void> {
  const result = (await client.callTool({ name: 'convert', arguments: CONVERT_ARGS })) as CallToolResult;
  if (result.isError) throw new Error(`fx convert failed: ${JSON.stringify(result.content)}`);
  checkConverted('SDK callTool', result.structuredContent);
}
