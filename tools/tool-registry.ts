// Native tools are found by scanning tools/native/: adding a tool is adding a file, and nothing else.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { isNativeTool, toToolSpec, type NativeTool } from './define-tool';
import type { ToolSpec } from '../core/types';

export class ToolRegistry {
  private readonly byName = new Map<string, { tool: NativeTool; spec: ToolSpec }>();

  constructor(tools: NativeTool[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Two native tools are named "${tool.name}".`);
      this.byName.set(tool.name, { tool, spec: toToolSpec(tool) });
    }
  }

  get(name: string): NativeTool | undefined {
    return this.byName.get(name)?.tool;
  }

  spec(name: string): ToolSpec | undefined {
    return this.byName.get(name)?.spec;
  }

  all(): NativeTool[] {
    return [...this.byName.values()].map((e) => e.tool);
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }
}

export const NATIVE_TOOLS_DIR = path.join(__dirname, 'native');

/** Loads every module under `dir` (recursively) and keeps its default export when it is a tool. */
export function loadNativeTools(dir = NATIVE_TOOLS_DIR): ToolRegistry {
  return new ToolRegistry(
    loadModules(dir)
      .map((m) => m.value)
      .filter(isNativeTool),
  );
}

/** Every module under `dir` (recursively, in name order) with its default export. */
export function loadModules(dir: string): { file: string; value: unknown }[] {
  const found: { file: string; value: unknown }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...loadModules(full));
    else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(full) as { default?: unknown };
      found.push({ file: full, value: mod.default });
    }
  }
  return found;
}
