// Running the hooks of one point, in the order HOOKS names them: each sees what the one before let through (its
// rewrite included); the first block, throw or nonsense answer stops the rest, and what it guarded does not happen
// (fail closed). Each run is a `hook.run` span, under the activity's own.
import { Context } from '@temporalio/activity';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { z } from 'zod';
import {
  HOOK_POINTS,
  type Hook,
  type HookDecision,
  type HookInputs,
  type HookPoint,
  type HookRewrites,
} from '../../core/hooks';
import { whileHeartbeating } from '../heartbeat';

/** A hook as the worker runs it: its definition, where it came from, and what `configure` made of the settings. */
export interface LoadedHook {
  hook: Hook;
  /** Its file, or `code` for one handed to the worker factory. */
  file: string;
  config: unknown;
}

/** What the hooks of a point made of it: the input as rewritten, the decisions to record, and the one that stopped it. */
export interface HookRun<P extends HookPoint> {
  input: HookInputs[P];
  decisions: HookDecision[];
  stopped?: HookDecision;
}

/** Where the hooks run: the activity's conversation is found by the runner; tool points name the tool. */
export interface HookScope {
  goalId?: string;
  tool?: string;
}

/** A hook that has not answered in this long fails closed: a guardrail that hangs must not hang the turn. */
export const HOOK_TIMEOUT_MS = 10_000;

export class HookRunner {
  private readonly byPoint = new Map<HookPoint, LoadedHook[]>();

  constructor(
    readonly hooks: LoadedHook[] = [],
    private readonly timeoutMs = HOOK_TIMEOUT_MS,
  ) {
    for (const loaded of hooks) {
      for (const point of pointsOf(loaded.hook)) this.byPoint.set(point, [...(this.byPoint.get(point) ?? []), loaded]);
    }
  }

  /** The hooks' names, in the order they run. */
  names(): string[] {
    return this.hooks.map((h) => h.hook.name);
  }

  /** The points some hook runs at. */
  points(): HookPoint[] {
    return HOOK_POINTS.filter((point) => this.has(point));
  }

  has(point: HookPoint): boolean {
    return (this.byPoint.get(point)?.length ?? 0) > 0;
  }

  async run<P extends HookPoint>(point: P, input: HookInputs[P], scope: HookScope = {}): Promise<HookRun<P>> {
    const decisions: HookDecision[] = [];
    let current = input;
    for (const { hook, config } of this.byPoint.get(point) ?? []) {
      const decide = (action: HookDecision['action'], note: string): HookDecision => ({
        hook: hook.name,
        point,
        action,
        note,
        ...(scope.tool ? { tool: scope.tool } : {}),
      });
      const answer = await this.ask(hook, point, current, { config, goalId: scope.goalId });
      if ('failed' in answer) {
        const failed = decide('failed', answer.failed);
        return { input: current, decisions: [...decisions, failed], stopped: failed };
      }
      if ('block' in answer) {
        const blocked = decide('block', answer.block);
        return { input: current, decisions: [...decisions, blocked], stopped: blocked };
      }
      if ('rewrite' in answer) {
        current = { ...current, ...answer.rewrite };
        decisions.push(decide('rewrite', answer.note));
      }
    }
    return { input: current, decisions };
  }

  /** One hook's answer, checked; a throw, a timeout or an answer of the wrong shape comes back as `failed`. */
  private ask<P extends HookPoint>(
    hook: Hook,
    point: P,
    input: HookInputs[P],
    ctx: { config: unknown; goalId?: string },
  ): Promise<Answer<P> | { failed: string }> {
    const attributes = { 'hook.name': hook.name, 'hook.point': point };
    return trace.getTracer('agent-orchestrator').startActiveSpan('hook.run', { attributes }, async (span) => {
      try {
        const raw = await whileHeartbeating(() =>
          withTimeout(
            Promise.resolve(
              hook.run({ point, ...input } as never, { point, conversationId: conversationId(), ...ctx }) as unknown,
            ),
            this.timeoutMs,
          ),
        );
        const parsed = answerSchema(point).safeParse(raw ?? { pass: true });
        const answer: Answer<P> | { failed: string } = parsed.success
          ? (parsed.data as Answer<P>)
          : {
              failed: `it answered ${preview(raw)}, which is not a pass, a rewrite with a note, or a block with a reason`,
            };
        span.setAttribute('hook.action', 'failed' in answer ? 'failed' : Object.keys(answer)[0]!);
        if ('failed' in answer) span.setStatus({ code: SpanStatusCode.ERROR });
        return answer;
      } catch (err) {
        span.setAttribute('hook.action', 'failed');
        span.setStatus({ code: SpanStatusCode.ERROR });
        if (err instanceof HookTimeout) return { failed: err.message };
        return { failed: `it threw: ${err instanceof Error ? err.message : String(err)}` };
      } finally {
        span.end();
      }
    });
  }
}

type Answer<P extends HookPoint> = { pass: true } | { rewrite: HookRewrites[P]; note: string } | { block: string };

function pointsOf(hook: Hook): HookPoint[] {
  return typeof hook.on === 'string' ? [hook.on] : [...hook.on];
}

/** The conversation of the running activity; none outside one (unit tests). */
function conversationId(): string | undefined {
  try {
    return Context.current().info.workflowExecution?.workflowId;
  } catch {
    return undefined;
  }
}

class HookTimeout extends Error {}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HookTimeout(`it did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

const record = z.record(z.string(), z.unknown());
const toolCall = z.looseObject({ id: z.string(), tool: z.string(), args: record });
const outcome = z.looseObject({ status: z.enum(['ok', 'invalid_input', 'tool_error', 'rejected']) });

/** What each point's rewrite must look like: a hook's bad rewrite is its failure, never the model's or the tool's. */
const REWRITES: { [P in HookPoint]: z.ZodType } = {
  userMessage: z.strictObject({ text: z.string() }),
  beforeModelCall: z.strictObject({
    system: z.string().optional(),
    messages: z.array(z.looseObject({ kind: z.enum(['user', 'agent', 'tool', 'note']) })).optional(),
  }),
  afterModelCall: z.strictObject({ text: z.string().optional(), toolCalls: z.array(toolCall).optional() }),
  beforeToolCall: z.strictObject({ args: record }),
  afterToolCall: z.strictObject({ outcome }),
};

function answerSchema(point: HookPoint): z.ZodType {
  return z.union([
    z.strictObject({ pass: z.literal(true) }),
    z.strictObject({ block: z.string().trim().min(1) }),
    z.strictObject({ rewrite: REWRITES[point], note: z.string().trim().min(1) }),
  ]);
}
