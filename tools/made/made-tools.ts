// The made tools' registry: one JSON file per version in the tools folder (TOOLS_DIR, default config/tools/), named
// `<name>.v<version>.json` (`.disabled` appended when set aside), each holding the manifest, the code, its examples
// and where it came from. The folder is re-read when it changes, and every file — written by CreateTool or dropped in
// by hand — passes the same check as a draft before it is offered; a broken file is reported, never loaded. A tool's
// newest working version is the one goals get; older versions stay, so a conversation keeps the version it was given.
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { z } from 'zod';
import type {
  MadeToolSummary,
  ToolCreated,
  ToolDraft,
  ToolDraftCheck,
  ToolManifest,
  ToolProvenance,
} from '../../core/made-tools';
import type { ToolOutcome, ToolSpec } from '../../core/types';
import { runSandboxed, type SandboxLimits } from './sandbox';
import {
  checkToolDraft,
  compileSchema,
  draftProblems,
  schemaErrors,
  toolDraftSchema,
  type ToolCodeBudget,
} from './tool-draft';

export interface MadeToolOptions {
  folder: string;
  limits: SandboxLimits;
  budget: ToolCodeBudget;
  /** Why a name cannot be a made tool's (a native or builtin tool has it), or null. */
  reserved: (name: string) => string | null;
}

interface ToolFile {
  file: string;
  name: string;
  version: number;
  disabled: boolean;
  manifest?: ToolManifest;
  /** Why the file is not offered. */
  problems?: string[];
  input?: ValidateFunction;
  output?: ValidateFunction;
}

const FILE_NAME = /^([A-Za-z][A-Za-z0-9_]*)\.v(\d+)\.json(\.disabled)?$/;
const DISABLED = '.disabled';

const manifestSchema = toolDraftSchema
  .omit({ update: true })
  .extend({
    version: z.number().int().positive(),
    isPure: z.literal(true),
    provenance: z
      .object({
        createdBy: z.string(),
        callId: z.string(),
        createdAt: z.string(),
        request: z.string(),
        model: z.string().optional(),
      })
      .optional(),
  })
  .strict();

export class MadeTools {
  private stamp: string | null = null;
  private files: ToolFile[] = [];
  /** Checked files by name, size and time: a file is run through its examples once, not on every look. */
  private readonly checked = new Map<string, ToolFile>();

  constructor(private readonly opts: MadeToolOptions) {}

  get folder(): string {
    return this.opts.folder;
  }

  /** Re-reads the folder when it changed (one readdir and a stat per file when it did not). */
  async refresh(): Promise<void> {
    const entries = this.entries();
    const stamp = entries.map((e) => e.key).join('|');
    if (stamp === this.stamp) return;
    const files: ToolFile[] = [];
    for (const entry of entries) {
      let loaded = this.checked.get(entry.key);
      if (!loaded) {
        loaded = await this.load(entry.file);
        this.checked.set(entry.key, loaded);
      }
      files.push(loaded);
    }
    const current = new Set(entries.map((e) => e.key));
    for (const key of this.checked.keys()) if (!current.has(key)) this.checked.delete(key);
    this.files = files;
    this.stamp = stamp;
  }

  /** The spec of the newest working, enabled version of `name`. */
  spec(name: string): ToolSpec | undefined {
    const m = this.current(name)?.manifest;
    return m && specOf(m);
  }

  /** The spec of exactly this version, if it works (disabled or not). */
  specAt(name: string, version: number): ToolSpec | undefined {
    const m = this.files.find((f) => f.name === name && f.version === version)?.manifest;
    return m && specOf(m);
  }

  /** Names of the made tools on offer. */
  names(): string[] {
    return [...new Set(this.files.filter((f) => f.manifest && !f.disabled).map((f) => f.name))].sort();
  }

  /** Files that are not offered, and why. */
  problems(): string[] {
    return this.files.filter((f) => f.problems).map((f) => `${path.basename(f.file)}: ${f.problems!.join('; ')}`);
  }

  /** Whether `draft` can be made: the draft check, with the names taken now. */
  async check(draft: unknown): Promise<ToolDraftCheck & { draft?: ToolDraft }> {
    await this.refresh();
    return checkToolDraft(draft, { ...this.opts, nameProblem: (d) => this.nameProblem(d) });
  }

  /**
   * Checks again (the user may have edited the draft) and writes the next version of the tool. Idempotent per call:
   * a retry of the same call (same conversation and call id) finds the file it wrote and answers the same.
   */
  async create(draft: unknown, provenance: ToolProvenance): Promise<ToolCreated> {
    await this.refresh();
    const own = this.files.find(
      (f) =>
        f.manifest?.provenance?.createdBy === provenance.createdBy &&
        f.manifest.provenance.callId === provenance.callId,
    );
    if (own) return { name: own.name, version: own.version, file: own.file };
    const checked = await this.check(draft);
    if (!checked.draft) return { problems: checked.problems };
    const { update: _update, ...tool } = checked.draft;
    const version = Math.max(0, ...this.versions(tool.name)) + 1;
    const manifest: ToolManifest = { ...tool, version, isPure: true, provenance };
    const file = path.join(this.folder, `${tool.name}.v${version}.json`);
    mkdirSync(this.folder, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`);
    try {
      // A link, not a rename: it fails when the version exists (another call made it meanwhile), never overwrites.
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return {
        problems: [`${tool.name} v${version} was just made by another call; draft again to make the next version`],
      };
    } finally {
      rmSync(tmp, { force: true });
    }
    await this.refresh();
    return { name: tool.name, version, file };
  }

  /** Runs version `version` of `name` on `args` in the sandbox (its call is in the conversation's history, which is
   * where its usage is counted: views/usage-stats.ts). */
  async run(name: string, version: number, args: Record<string, unknown>): Promise<ToolOutcome> {
    await this.refresh();
    const tool = this.files.find((f) => f.name === name && f.version === version);
    if (!tool?.manifest)
      return {
        status: 'tool_error',
        error: `the made tool ${name} v${version} is not available (${tool?.problems?.join('; ') ?? 'removed'})`,
      };
    if (tool.disabled) return { status: 'tool_error', error: `${name} is disabled (agent tools enable ${name})` };
    const badInput = schemaErrors(tool.input!, args, 'arguments');
    if (badInput) return { status: 'invalid_input', problems: [badInput], missing: [] };
    const ran = await runSandboxed(tool.manifest.code, args, this.opts.limits);
    const badOutput = ran.ok && tool.output ? schemaErrors(tool.output, ran.output, 'answer') : null;
    if (!ran.ok) return { status: 'tool_error', error: ran.error };
    if (badOutput)
      return { status: 'tool_error', error: `the answer does not fit the tool's outputSchema: ${badOutput}` };
    return { status: 'ok', result: ran.output };
  }

  /** Every file, disabled and broken ones too, newest version first per name. */
  list(): MadeToolSummary[] {
    return [...this.files]
      .sort((a, b) => a.name.localeCompare(b.name) || b.version - a.version)
      .map((f) => ({
        name: f.name,
        version: f.version,
        file: f.file,
        disabled: f.disabled,
        current: this.current(f.name) === f,
        ...(f.problems ? { problems: f.problems } : {}),
        ...(f.manifest
          ? {
              description: f.manifest.description,
              code: f.manifest.code,
              examples: f.manifest.examples,
              ...(f.manifest.provenance ? { provenance: f.manifest.provenance } : {}),
            }
          : {}),
      }));
  }

  /** Sets every version of `name` aside (calls get an error saying so), brings them back, or deletes them. */
  async manage(action: 'disable' | 'enable' | 'remove', name: string): Promise<MadeToolSummary[]> {
    await this.refresh();
    const files = this.files.filter((f) => f.name === name);
    if (!files.length) throw new Error(`No made tool named ${name} in ${this.folder}.`);
    for (const f of files) {
      if (action === 'remove') rmSync(f.file, { force: true });
      else if (action === 'disable' && !f.disabled) renameSync(f.file, f.file + DISABLED);
      else if (action === 'enable' && f.disabled) renameSync(f.file, f.file.slice(0, -DISABLED.length));
    }
    await this.refresh();
    return action === 'remove' ? [] : this.list().filter((f) => f.name === name);
  }

  private current(name: string): ToolFile | undefined {
    return this.files
      .filter((f) => f.name === name && f.manifest && !f.disabled)
      .reduce<ToolFile | undefined>((best, f) => (!best || f.version > best.version ? f : best), undefined);
  }

  private versions(name: string): number[] {
    return this.files.filter((f) => f.name === name).map((f) => f.version);
  }

  private nameProblem(draft: ToolDraft): string | null {
    const reserved = this.opts.reserved(draft.name);
    if (reserved) return reserved;
    const versions = this.versions(draft.name);
    if (versions.length && !draft.update)
      return `the name ${draft.name} is taken by a made tool (v${Math.max(...versions)}); choose another, or set update: true to make its next version`;
    if (!versions.length && draft.update) return `there is no made tool ${draft.name} to update`;
    return null;
  }

  /** A file as the folder holds it, checked like a draft: any problem keeps it out. */
  private async load(file: string): Promise<ToolFile> {
    const [, name, version, disabled] = FILE_NAME.exec(path.basename(file))!;
    const base = { file, name: name!, version: Number(version), disabled: !!disabled };
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      return { ...base, problems: [`not JSON: ${(err as Error).message}`] };
    }
    const parsed = manifestSchema.safeParse(raw);
    if (!parsed.success) return { ...base, problems: draftProblems(parsed.error) };
    const manifest = parsed.data as ToolManifest;
    if (manifest.name !== base.name || manifest.version !== base.version)
      return { ...base, problems: [`the file says ${manifest.name} v${manifest.version}; its name must match`] };
    const { provenance: _p, version: _v, isPure: _i, ...draft } = manifest;
    const checked = await checkToolDraft(draft, { ...this.opts, nameProblem: (d) => this.opts.reserved(d.name) });
    if (checked.problems.length) return { ...base, problems: checked.problems };
    const input = compileSchema(manifest.inputSchema, 'inputSchema') as ValidateFunction;
    const output = manifest.outputSchema
      ? (compileSchema(manifest.outputSchema, 'outputSchema') as ValidateFunction)
      : undefined;
    return { ...base, manifest, input, ...(output ? { output } : {}) };
  }

  /** The folder's tool files with a key that changes when a file does. */
  private entries(): { file: string; key: string }[] {
    let names: string[];
    try {
      names = readdirSync(this.folder)
        .filter((f) => FILE_NAME.test(f))
        .sort();
    } catch {
      return [];
    }
    return names.flatMap((f) => {
      const file = path.join(this.folder, f);
      try {
        const st = statSync(file);
        return [{ file, key: `${f}:${st.size}:${st.mtimeMs}` }];
      } catch {
        return [];
      }
    });
  }
}

/** What the workflow and the LLM see of one version: pure, so it changes nothing and needs no approval per call. */
export function specOf(m: ToolManifest): ToolSpec {
  return {
    name: m.name,
    description: m.description,
    category: 'made',
    inputSchema: m.inputSchema,
    approval: 'never',
    readOnly: true,
    kind: 'made',
    made: { version: m.version },
  };
}
