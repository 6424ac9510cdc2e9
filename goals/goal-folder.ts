// Goals as JSON files in a folder (GOALS_DIR, default config/goals): validated with zod, re-read when the folder
// changes, so a new goal shows up in ListAgents for running conversations with no restart or redeploy.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Goal } from '../workflows/types';

export const goalSchema = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]{2,63}$/, 'lowercase letters, digits and _, e.g. goal_travel'),
    category: z.string().min(1),
    agentName: z.string().min(1),
    agentFriendlyDescription: z.string().min(1),
    description: z.string().min(1),
    starterPrompt: z.string().min(1),
    exampleConversation: z.string().default(''),
    tools: z.array(z.string()).default([]),
    mcp: z
      .object({ servers: z.array(z.string()).optional(), categories: z.array(z.string()).optional(), tools: z.array(z.string()).optional() })
      .strict()
      .optional(),
    settings: z
      .object({
        model: z.string().optional(),
        temperature: z.number().min(0).max(2).optional(),
        maxToolSteps: z.number().int().min(1).max(50).optional(),
        approval: z.enum(['always', 'never']).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export class GoalFolder {
  private stamp = '';
  private goals: Goal[] = [];
  private problemList: string[] = [];

  constructor(readonly dir: string) {}

  /** The folder's valid goals; files that fail validation are left out and reported by problems(). */
  read(): Goal[] {
    const stamp = this.currentStamp();
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      this.load();
    }
    return this.goals;
  }

  problems(): string[] {
    this.read();
    return this.problemList;
  }

  private load(): void {
    this.goals = [];
    this.problemList = [];
    for (const file of this.files()) {
      try {
        const parsed = goalSchema.safeParse(JSON.parse(readFileSync(path.join(this.dir, file), 'utf8')));
        if (parsed.success) this.goals.push(parsed.data);
        else this.problemList.push(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'goal'}: ${i.message}`).join('; ')}`);
      } catch (err) {
        this.problemList.push(`${file}: ${(err as Error).message}`);
      }
    }
  }

  private files(): string[] {
    try {
      return readdirSync(this.dir).filter((f) => f.endsWith('.json')).sort();
    } catch {
      return [];
    }
  }

  /** Names, sizes and modification times: one readdir and a stat per file. */
  private currentStamp(): string {
    return this.files()
      .map((f) => {
        try {
          const st = statSync(path.join(this.dir, f));
          return `${f}:${st.size}:${st.mtimeMs}`;
        } catch {
          return f;
        }
      })
      .join('|');
  }
}
