// What puts the toolbox (toolbox.ts, 504 tools) behind a worker, for SearchTools' tests and benchmark: an MCP registry
// serving it over stdio, and a model (for fake-chat-completions.ts) that searches when it is offered SearchTools.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { completion, isAfterTool, lastUserText, toolResults, type ChatRequestBody } from './fake-chat-completions';

/** What the model asks the tool it finds to do. */
export const TOOLBOX_ARGS = { title: 'Design sync', details: 'Tuesday 10:00' };

/** An MCP registry (config/mcp_endpoints.json's format) in a fresh folder, the toolbox its one server; its path. */
export function writeToolboxRegistry(timeoutMs = 20_000): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'toolbox-')), 'mcp_endpoints.json');
  const toolbox = {
    command: process.execPath,
    args: ['--require', 'tsx/cjs', path.join(__dirname, 'toolbox-server.ts')],
    timeoutMs,
  };
  writeFileSync(file, JSON.stringify({ mcpServers: { toolbox } }));
  return file;
}

/**
 * A model that searches when it is offered SearchTools, calls the best match (or `wanted`, when it sees every tool),
 * then answers "Done: " and the tool's result.
 */
export function toolboxModel(wanted: string) {
  return (body: ChatRequestBody) => {
    if (isAfterTool(body)) {
      const last = JSON.parse(toolResults(body).at(-1)!.content) as { result: { matches?: { name: string }[] } };
      const found = last.result.matches?.[0]?.name;
      if (found) return completion({ toolCalls: [{ name: found, args: TOOLBOX_ARGS }] });
      return completion({ text: `Done: ${JSON.stringify(last.result)}` });
    }
    if (lastUserText(body).startsWith('Greet the user')) return completion({ text: 'Hello.' });
    const offered = new Set(body.tools?.map((t) => t.function.name) ?? []);
    if (offered.has('SearchTools'))
      return completion({ toolCalls: [{ name: 'SearchTools', args: { query: lastUserText(body) } }] });
    return completion({ toolCalls: [{ name: wanted, args: TOOLBOX_ARGS }] });
  };
}
