// Hooks are found like tools: one file each in the hooks folder (HOOKS_DIR, by default the project's hooks/), its
// default export a hook (core/hooks.ts: defineHook). Every file is checked when the worker starts, and a bad one
// stops the start naming the file; HOOKS names the ones that run, in order, so the shipped examples change nothing
// until asked for.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { HOOK_NAME, HOOK_POINTS, type Hook } from '../../core/hooks';
import { HookRunner, type LoadedHook } from './hook-runner';

/** The project's hooks/ (compiled: dist/hooks/, beside dist/activities/). */
export const DEFAULT_HOOKS_FOLDER = path.join(__dirname, '..', '..', 'hooks');

export interface HookSettings {
  /** HOOKS_DIR. */
  folder: string;
  /** HOOKS: the hooks that run, in this order (none by default). */
  enabled: string[];
  /** The worker's HOOK_* settings, handed to each hook's `configure`. */
  settings: Record<string, string | undefined>;
}

export const NO_HOOKS: HookSettings = { folder: DEFAULT_HOOKS_FOLDER, enabled: [], settings: {} };

const point = z.enum(HOOK_POINTS as [string, ...string[]]);
const fn = z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', { message: 'must be a function' });
const hookSchema = z.looseObject({
  name: z
    .string()
    .regex(HOOK_NAME, { message: 'must be lower-case letters, digits and dashes, starting with a letter' }),
  description: z.string().optional(),
  on: z.union([point, z.array(point).min(1)], {
    message: `must be one of ${HOOK_POINTS.join(', ')}, or a list of them`,
  }),
  configure: fn.optional(),
  run: fn,
});

/** Checks one hook definition; the error names `where` (its file) and the field. */
export function checkHook(value: unknown, where: string): Hook {
  if (!value || typeof value !== 'object')
    throw new Error(`${where}: its default export is not a hook (export default defineHook({ name, on, run }))`);
  const parsed = hookSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${where}: ${issue.path.join('.') || 'hook'} ${issue.message}`);
  }
  return value as Hook;
}

/** Every hook in `folder`, checked, by name. A missing folder has none. */
export function readHookFolder(folder: string): Map<string, { hook: Hook; file: string }> {
  const found = new Map<string, { hook: Hook; file: string }>();
  let entries: string[];
  try {
    entries = readdirSync(folder).sort();
  } catch {
    return found;
  }
  for (const name of entries) {
    const file = path.join(folder, name);
    // Subfolders are for helpers the hooks share; declarations and tests are not hooks.
    if (!/\.(ts|js)$/.test(name) || /\.(d|test)\.ts$/.test(name) || statSync(file).isDirectory()) continue;
    let mod: { default?: unknown };
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      mod = require(file) as { default?: unknown };
    } catch (err) {
      throw new Error(`${file}: could not be loaded: ${(err as Error).message.split('\n')[0]}`);
    }
    const hook = checkHook(mod.default, file);
    const twin = found.get(hook.name);
    if (twin) throw new Error(`${file}: the hook name "${hook.name}" is taken by ${twin.file}`);
    found.set(hook.name, { hook, file });
  }
  return found;
}

/**
 * The hooks this worker runs: those handed in code first (the worker factory's `hooks`), then those HOOKS names
 * from the folder, each configured once with the HOOK_* settings. Any problem stops the start, naming its source.
 */
export function loadHooks(settings: HookSettings = NO_HOOKS, inCode: Hook[] = []): HookRunner {
  const folder = readHookFolder(settings.folder);
  const chosen: { hook: Hook; file: string }[] = inCode.map((hook) => ({
    hook: checkHook(hook, 'code'),
    file: 'code',
  }));
  for (const name of settings.enabled) {
    const entry = folder.get(name);
    if (!entry) {
      const known = [...folder.keys()].join(', ') || 'none';
      throw new Error(`HOOKS: no hook named "${name}" in ${settings.folder} (HOOKS_DIR; it has: ${known})`);
    }
    chosen.push(entry);
  }
  const seen = new Set<string>();
  const loaded: LoadedHook[] = chosen.map(({ hook, file }) => {
    if (seen.has(hook.name)) throw new Error(`HOOKS: the hook "${hook.name}" is named twice`);
    seen.add(hook.name);
    let config: unknown;
    try {
      config = hook.configure?.({ ...settings.settings });
    } catch (err) {
      throw new Error(`${file}: the hook "${hook.name}" refused its settings: ${(err as Error).message}`);
    }
    return { hook, file, config };
  });
  return new HookRunner(loaded);
}
