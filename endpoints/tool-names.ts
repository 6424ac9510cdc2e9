// LLM-safe names for the tools of an endpoint (an MCP server's tools, an HTTP API's operations): `<endpoint>__<tool>`, sanitised to what every provider accepts
// (^[a-zA-Z0-9_-]{1,64}$), with a deterministic hash suffix when truncation or a collision would merge two tools.
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME = 64;

export function mcpToolName(server: string, tool: string, taken: Set<string>): string {
  const base = `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  let name = base;
  // A third tool of the same name hashes with a count, so every one gets a name of its own.
  for (let n = 0; name.length > MAX_TOOL_NAME || taken.has(name); n++) {
    const seed = n === 0 ? `${server}/${tool}` : `${server}/${tool}#${n}`;
    const suffix = `_${createHash('sha256').update(seed).digest('hex').slice(0, 6)}`;
    name = `${base.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
  }
  taken.add(name);
  return name;
}
