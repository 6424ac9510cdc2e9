// The worker's side of PlanContextRef: a model call's request names its goal and tools by number once it has sent
// them; this cache holds what each run sent, per run and number. A miss (another worker took the request that carried
// them, this one restarted, or what it holds under that number has another fingerprint) asks the workflow with its
// planContext query. Runs with the same goal and tools share one copy here (by content), as conversations share one
// in the workflow worker (workflows/interned.ts).
import { createHash } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { planContextQuery } from '../../core/messages';
import type { PlanContext, PlanContextInput, PlanContextRef } from '../../core/activity-types';

/** Versions kept (a run's versions, across runs), and the JSON they hold at most: the least recently used go first
 * past either (one goal with a large API's operations is ~1 MB). */
const KEPT = 1000;
const KEPT_BYTES = 64 * 1024 * 1024;

interface Held {
  context: PlanContext;
  /** Its size as JSON. */
  bytes: number;
  /** How many kept versions name this content. */
  uses: number;
}

interface Version {
  digest: string;
  fingerprint: string;
}

export class PlanContextCache {
  /** `workflowId/runId#version` → its content's digest and the fingerprint the run gave it. */
  private readonly versions = new Map<string, Version>();
  private readonly contents = new Map<string, Held>();
  private bytes = 0;

  constructor(private readonly limits = { versions: KEPT, bytes: KEPT_BYTES }) {}

  /** The request with its goal and tools: as it carried them (kept for later ones), or as kept or asked for. */
  async resolve<R extends PlanContextInput>(input: R): Promise<R & PlanContext> {
    const { context } = input;
    if (!context) return input as R & PlanContext;
    const key = runKey(context.version);
    if (input.goal) return { ...input, ...this.keep(key, context, { goal: input.goal, tools: input.tools }) };
    const known = this.versions.get(key);
    const held =
      known?.fingerprint === context.fingerprint
        ? this.touch(key, known)
        : this.keep(key, context, await this.ask(context.version));
    return { ...input, ...held };
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

  /** `context` kept under `key` (the most recently used now); returns the copy held for its content. */
  private keep(key: string, { fingerprint }: PlanContextRef, context: PlanContext): PlanContext {
    const json = JSON.stringify(context);
    const digest = createHash('sha256').update(json).digest('base64');
    const before = this.versions.get(key);
    this.versions.delete(key);
    if (before?.digest !== digest) {
      if (before) this.release(before.digest);
      const held = this.contents.get(digest);
      if (held) held.uses++;
      else {
        this.contents.set(digest, { context, bytes: json.length, uses: 1 });
        this.bytes += json.length;
      }
    }
    this.versions.set(key, { digest, fingerprint });
    while (this.versions.size > 1 && (this.versions.size > this.limits.versions || this.bytes > this.limits.bytes)) {
      const [oldest, { digest: itsDigest }] = this.versions.entries().next().value!;
      this.versions.delete(oldest);
      this.release(itsDigest);
    }
    return this.contents.get(digest)!.context;
  }

  /** The most recently used now. */
  private touch(key: string, version: Version): PlanContext {
    this.versions.delete(key);
    this.versions.set(key, version);
    return this.contents.get(version.digest)!.context;
  }

  private release(digest: string): void {
    const held = this.contents.get(digest)!;
    if (--held.uses > 0) return;
    this.contents.delete(digest);
    this.bytes -= held.bytes;
  }

  /** How many contents are held, and their size as JSON (for tests). */
  get size(): { contents: number; bytes: number } {
    return { contents: this.contents.size, bytes: this.bytes };
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
