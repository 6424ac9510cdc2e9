// Goals as JSON files in a folder (GOALS_DIR, default config/goals): validated with zod, re-read when the folder
// changes, so a new goal shows up in ListAgents for running conversations with no restart or redeploy.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Goal } from '../core/types';
import { goalProblems, goalSchema } from './goal-schema';

export class GoalFolder {
  private stamp = '';
  private goals: Goal[] = [];
  private problemList: string[] = [];
  private readonly fileOf = new Map<string, string>();

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

  /** The file a goal of this folder came from. */
  file(goalId: string): string | undefined {
    this.read();
    return this.fileOf.get(goalId);
  }

  private load(): void {
    this.goals = [];
    this.fileOf.clear();
    this.problemList = [];
    for (const file of this.files()) {
      try {
        const parsed = goalSchema.safeParse(JSON.parse(readFileSync(path.join(this.dir, file), 'utf8')));
        if (parsed.success) {
          this.goals.push(parsed.data);
          this.fileOf.set(parsed.data.id, path.join(this.dir, file));
        } else this.problemList.push(`${file}: ${goalProblems(parsed.error)}`);
      } catch (err) {
        this.problemList.push(`${file}: ${(err as Error).message}`);
      }
    }
  }

  private files(): string[] {
    try {
      return readdirSync(this.dir)
        .filter((f) => f.endsWith('.json'))
        .sort();
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
