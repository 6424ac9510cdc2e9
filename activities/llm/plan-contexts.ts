// The worker's side of PlanContextRef: a model call's request names its goal and tools by number once it has sent
// them; this cache holds what each run sent, per run and number. A miss (another worker took the request that carried
// them, or this one restarted) asks the workflow with its planContext query. Runs with the same goal and tools share
// one copy here (by content), as conversations share one in the workflow worker (workflows/interned.ts).
import { createHash } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { planContextQuery } from '../../core/messages';
import type { PlanContext, PlanContextInput } from '../../core/activity-types';

/** Versions kept (a run's versions, across runs); the least recently used go first. */
const KEPT = 1000;

interface Held {
  context: PlanContext;
  /** How many kept versions name this content. */
  uses: number;
}

export class PlanContextCache {
  /** `workflowId/runId#version` → the digest of its content. */
  private readonly versions = new Map<string, string>();
  private readonly contents = new Map<string, Held>();

  /** The request with its goal and tools: as it carried them (kept for later ones), or as kept or asked for. */
  async resolve<R extends PlanContextInput>(input: R): Promise<R & PlanContext> {
    const { context } = input;
    if (!context) return input as R & PlanContext;
    const key = runKey(context.version);
    if (input.goal) return { ...input, ...this.keep(key, { goal: input.goal, tools: input.tools }) };
    const known = this.versions.get(key);
    return { ...input, ...(known ? this.touch(key, known) : this.keep(key, await this.ask(context.version))) };
  }

  private async ask(version: number): Promise<PlanContext> {
    const { workflowId, runId } = runOf();
    const context = await Context.current()
      .client.workflow.getHandle(workflowId, runId)
      .query(planContextQuery, version);
    if (!context)
      throw ApplicationFailure.nonRetryable(
        `The conversation ${workflowId} no longer keeps the goal and tools its model call was sent as version ${version}`,
      );
    return context;
  }

  private keep(key: string, context: PlanContext): PlanContext {
    const digest = createHash('sha256').update(JSON.stringify(context)).digest('base64');
    const before = this.versions.get(key);
    if (before === digest) return this.touch(key, digest);
    if (before) this.release(before);
    this.versions.set(key, digest);
    const held = this.contents.get(digest);
    if (held) held.uses++;
    else this.contents.set(digest, { context, uses: 1 });
    if (this.versions.size > KEPT) {
      const [oldest, itsDigest] = this.versions.entries().next().value!;
      this.versions.delete(oldest);
      this.release(itsDigest);
    }
    return this.contents.get(digest)!.context;
  }

  /** Most recently used last. */
  private touch(key: string, digest: string): PlanContext {
    this.versions.delete(key);
    this.versions.set(key, digest);
    return this.contents.get(digest)!.context;
  }

  private release(digest: string): void {
    const held = this.contents.get(digest)!;
    if (--held.uses === 0) this.contents.delete(digest);
  }

  /** How many contents are held (for tests). */
  get size(): number {
    return this.contents.size;
  }
}

function runKey(version: number): string {
  const { workflowId, runId } = runOf();
  return `${workflowId}/${runId}#${version}`;
}

function runOf(): { workflowId: string; runId: string } {
  const run = Context.current().info.workflowExecution;
  if (!run)
    throw new Error('A plan context by number needs the workflow that sent it; pass goal and tools outside one.');
  return run;
}
