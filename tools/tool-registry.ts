// Native tools are found by scanning tools/native/: adding a tool is adding a file, and nothing else. Made tools
// (tools/made/: CreateTool's, from the tools folder) join by name once attached: goals list both kinds alike.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { isNativeTool, toToolSpec, type NativeTool } from './define-tool';
import type { ToolSpec } from '../core/types';

/** The made tools as the registry needs them (tools/made/made-tools.ts). */
export interface MadeToolSource {
  spec(name: string): ToolSpec | undefined;
  names(): string[];
}

export class ToolRegistry {
  private readonly byName = new Map<string, { tool: NativeTool; spec: ToolSpec }>();
  private made: MadeToolSource | undefined;

  constructor(tools: NativeTool[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`Two native tools are named "${tool.name}".`);
      this.byName.set(tool.name, { tool, spec: toToolSpec(tool) });
    }
  }

  /** Made tools are looked up after native ones (their names never collide: CreateTool refuses a taken name). */
  attachMade(made: MadeToolSource): void {
    this.made = made;
  }

  /** A native tool's definition (made tools have none here: they run in the sandbox). */
  get(name: string): NativeTool | undefined {
    return this.byName.get(name)?.tool;
  }

  /** The spec of a native tool, or of a made tool's current version. */
  spec(name: string): ToolSpec | undefined {
    return this.byName.get(name)?.spec ?? this.made?.spec(name);
  }

  madeNames(): string[] {
    return this.made?.names() ?? [];
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
