// `npm start -- --reset`: the demo's world back to its seeds. The offline tools keep what they change (PTO
// balances, transfers, loans, carts, invoices) so that a restart keeps it, which also means a few runs of the
// README use the balances up. Conversations (the Temporal database) are not demo data and stay.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isStdio, parseRegistry, type Registry } from '../endpoints/endpoint-registry';
import { loadNativeTools, type ToolRegistry } from '../tools/tool-registry';
import { demoDataFile, PROJECT_ROOT, type WorkerSettings } from './worker-settings';

/** Demo MCP servers (demo/) keep their records in the file a `<NAME>_DATA_FILE` variable of their entry names. */
const SERVER_DATA_FILE = /^[A-Z][A-Z0-9_]*_DATA_FILE$/;

/**
 * The files the demo keeps its data in: the tool stores of the agent worker and of each tool task queue (for
 * `npm run tool-worker`), and the records of the demo MCP servers in the registry.
 */
export function demoDataFiles(settings: WorkerSettings, tools: ToolRegistry = loadNativeTools()): string[] {
  const queues = new Set(tools.all().flatMap((t) => (t.taskQueue ? [t.taskQueue] : [])));
  return [
    demoDataFile(settings),
    ...[...queues].map((queue) => demoDataFile(settings, queue)),
    ...serverDataFiles(settings.mcpEndpointsFile),
  ];
}

/** Deletes the demo data, so every tool and demo server starts from its seeds again; returns the files deleted. */
export function resetDemoData(settings: WorkerSettings, tools?: ToolRegistry): string[] {
  const deleted = demoDataFiles(settings, tools).filter((file) => existsSync(file));
  for (const file of deleted) rmSync(file);
  return deleted;
}

function serverDataFiles(registryFile: string): string[] {
  let registry: Registry;
  try {
    registry = parseRegistry(readFileSync(registryFile, 'utf8'));
  } catch {
    return []; // no registry, or a broken one: the worker reports it; there is nothing of a server's to reset
  }
  return Object.values(registry.endpoints).flatMap((entry) => {
    if (!isStdio(entry)) return [];
    // A stdio server runs in its entry's cwd, by default the project root (as the worker's MCP pool starts it).
    const dir = entry.cwd ?? PROJECT_ROOT;
    return Object.entries(entry.env)
      .filter(([name, value]) => SERVER_DATA_FILE.test(name) && !value.includes('${'))
      .map(([, value]) => path.resolve(dir, value));
  });
}
