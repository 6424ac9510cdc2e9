// The MCP conformance suite's client under test, for its scenarios other than auth (`npx conformance client --command
// "node --require tsx/cjs testkit/conformance-client.ts" --scenario <x>`; the suite appends the server URL): our
// registry entry, discovery, pool and callMcpTool, as a conversation's tool call uses them. Each tool the server
// lists is called once, with arguments made from its input schema; a form the server asks for is accepted as the
// user would who keeps every default (our client fills them in, SEP-1034).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CallHost } from '../endpoints/mcp/call-host';
import { callMcpTool } from '../endpoints/mcp/call';
import { McpDiscovery } from '../endpoints/catalog';
import { RegistryFile } from '../endpoints/endpoint-registry';
import { McpPool } from '../endpoints/mcp/pool';

const USER_KEEPS_DEFAULTS: CallHost = {
  elicit: async () => ({ action: 'accept', content: {} }),
  sample: async () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'conformance' }),
  log: () => undefined,
  progress: () => undefined,
};

/** Arguments that fit a tool's schema: 1 for numbers, 'x' for strings, true for booleans. */
function argsFor(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const value = (type?: string) => (type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : 'x');
  return Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, value(p.type)]));
}

async function main(): Promise<void> {
  const url = process.argv.at(-1)!;
  const registry = path.join(mkdtempSync(path.join(tmpdir(), 'conformance-client-')), 'mcp.json');
  writeFileSync(registry, JSON.stringify({ mcpServers: { conformance: { url, type: 'http', timeoutMs: 20_000 } } }));
  const pool = new McpPool({ baseDir: process.cwd() });
  const discovery = new McpDiscovery({ registry: new RegistryFile(registry), pool });
  try {
    const catalog = await discovery.catalog();
    const endpoint = catalog.endpoints[0];
    if (endpoint?.status !== 'ok') throw new Error(`cannot list tools: ${endpoint?.error ?? 'no endpoint'}`);
    for (const spec of catalog.tools) {
      const outcome = await callMcpTool(
        discovery,
        pool,
        { name: spec.name, ref: spec.mcp!, args: argsFor(spec.inputSchema) },
        undefined,
        USER_KEEPS_DEFAULTS,
      );
      console.log(`${spec.name}: ${JSON.stringify(outcome).slice(0, 300)}`);
    }
  } finally {
    await pool.closeAll();
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(`conformance client: ${err.message}`);
    process.exit(1);
  },
);
