// Agents created on demand (CreateAgent): a goal drafted by the LLM is checked against the live catalog, shown to the
// user in full, and once approved written atomically into the goals folder with where it came from. Also the
// folder's housekeeping for `agent goal-files`: list with provenance, disable, enable, remove.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { selectTools, type McpDiscovery } from '../endpoints/catalog';
import { isBuiltinTool } from '../core/builtin-specs';
import type { GoalFileSummary } from '../core/activity-types';
import type { Goal, GoalProvenance } from '../core/types';
import { goalProblems, goalSchema } from './goal-schema';
import type { GoalRegistry } from './goal-registry';

/** Largest goal file a draft may make, in bytes: a goal is a page of text, not a document. */
export const MAX_GOAL_BYTES = 16 * 1024;
const DISABLED = '.disabled';

export interface DraftCheck {
  goal?: Goal;
  problems: string[];
}

export class AgentDrafts {
  constructor(
    private readonly goals: GoalRegistry,
    private readonly folder: string,
    private readonly toolExists: (name: string) => boolean,
    private readonly discovery?: McpDiscovery,
  ) {}

  /** Whether `draft` can become a goal: the schema, its size, a free id, tools that exist, selections that select. */
  async check(draft: unknown): Promise<DraftCheck> {
    const parsed = goalSchema.safeParse(draft);
    if (!parsed.success) return { problems: goalProblems(parsed.error).split('; ') };
    const goal = parsed.data;
    const problems: string[] = [];
    const bytes = Buffer.byteLength(JSON.stringify(goal));
    if (bytes > MAX_GOAL_BYTES) problems.push(`the goal is ${bytes} bytes; the limit is ${MAX_GOAL_BYTES}`);
    if (
      this.goals.ids().includes(goal.id) ||
      existsSync(this.fileOf(goal.id)) ||
      existsSync(this.fileOf(goal.id) + DISABLED)
    ) {
      problems.push(`the id ${goal.id} is taken; choose another`);
    }
    const unknown = goal.tools.filter((t) => !isBuiltinTool(t) && !this.toolExists(t));
    if (unknown.length) problems.push(`unknown tool(s): ${unknown.join(', ')}`);
    if (goal.mcp) {
      const catalog = this.discovery ? await this.discovery.catalog() : null;
      if (!catalog || selectTools(catalog, goal.mcp).length === 0)
        problems.push(`the MCP selection ${JSON.stringify(goal.mcp)} selects no tool of the registry`);
    }
    if (goal.delegates && this.goals.delegatesOf(goal).length === 0)
      problems.push(`the delegates ${JSON.stringify(goal.delegates)} match no agent`);
    if (goal.tools.length === 0 && !goal.mcp && !goal.delegates)
      problems.push('the goal has no tools, MCP selection or delegates: it could do nothing');
    return problems.length ? { problems } : { goal, problems };
  }

  /**
   * Checks again (the user may have edited the draft) and writes `<id>.json` atomically (a temporary file, then a
   * rename) with its provenance. A retry of the same call (same conversation and call id) finds its file and succeeds.
   */
  async create(
    draft: unknown,
    provenance: GoalProvenance,
  ): Promise<{ goalId: string; file: string } | { problems: string[] }> {
    const id = (draft as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && this.ownedBy(id, provenance)) return { goalId: id, file: this.fileOf(id) };
    const { goal, problems } = await this.check(draft);
    if (!goal) return { problems };
    const file = this.fileOf(goal.id);
    mkdirSync(this.folder, { recursive: true }); // a GOALS_DIR that does not exist yet is made, not an error
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ ...goal, provenance }, null, 2)}\n`);
    renameSync(tmp, file);
    return { goalId: goal.id, file };
  }

  /** The goals folder's files: each goal id, its file, whether it is disabled, and where it came from. */
  list(): GoalFileSummary[] {
    let files: string[] = [];
    try {
      files = readdirSync(this.folder)
        .filter((f) => f.endsWith('.json') || f.endsWith(`.json${DISABLED}`))
        .sort();
    } catch {
      return [];
    }
    return files.flatMap((f) => {
      try {
        const goal = JSON.parse(readFileSync(path.join(this.folder, f), 'utf8')) as Partial<Goal>;
        return [
          {
            goalId: String(goal.id ?? f),
            file: path.join(this.folder, f),
            disabled: f.endsWith(DISABLED),
            ...(goal.provenance ? { provenance: goal.provenance } : {}),
          },
        ];
      } catch {
        return [];
      }
    });
  }

  /** Disables (renames the file aside: running conversations keep their version), enables, or removes a goal file. */
  manage(action: 'disable' | 'enable' | 'remove', goalId: string): GoalFileSummary {
    const entry = this.list().find((g) => g.goalId === goalId);
    if (!entry) throw new Error(`No goal file for ${goalId} in ${this.folder} (goals in code cannot be changed here).`);
    if (action === 'remove') rmSync(entry.file);
    else if (action === 'disable' && !entry.disabled) renameSync(entry.file, entry.file + DISABLED);
    else if (action === 'enable' && entry.disabled) renameSync(entry.file, entry.file.slice(0, -DISABLED.length));
    return { ...entry, disabled: action === 'disable' || (action !== 'enable' && entry.disabled) };
  }

  private fileOf(id: string): string {
    return path.join(this.folder, `${id}.json`);
  }

  private ownedBy(id: string, provenance: GoalProvenance): boolean {
    try {
      const written = JSON.parse(readFileSync(this.fileOf(id), 'utf8')) as Goal;
      return written.provenance?.createdBy === provenance.createdBy && written.provenance?.callId === provenance.callId;
    } catch {
      return false;
    }
  }
}
