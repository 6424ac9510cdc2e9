// Secrets never leave the worker. One scrubber stands at the boundary of everything the worker hands out: every
// activity's result and failure (so replies, tool results and the workflow history) and every log line. It knows
// the configured secrets (LLM_KEY, STRIPE_API_KEY, TEMPORAL_API_KEY, each resolved `${env:…}` of the MCP registry)
// and blanks strings shaped like API keys and bearer tokens, which providers echo back in their errors.
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';

const MASK = '[secret]';
/** Shorter values are too likely to occur by chance ("true", a port) to be blanked everywhere. */
const MIN_LENGTH = 6;
const TOKEN_SHAPES = [
  /\b(?:sk|rk|pk)[-_][A-Za-z0-9_-]{16,}/g, // OpenAI, Stripe, Anthropic (sk-ant-…)
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/gi,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google
];

export class SecretScrubber {
  private readonly values = new Set<string>();

  /** Adds secret values (undefined and short ones are ignored). */
  add(...values: (string | undefined)[]): this {
    for (const v of values) if (v && v.length >= MIN_LENGTH) this.values.add(v);
    return this;
  }

  scrub(text: string): string {
    let out = text;
    for (const v of this.values) out = out.split(v).join(MASK);
    for (const shape of TOKEN_SHAPES) out = out.replace(shape, MASK);
    return out;
  }

  /** A copy with every string scrubbed (errors too: message, stack and causes, in place). */
  scrubDeep<T>(value: T): T {
    if (typeof value === 'string') return this.scrub(value) as T;
    if (value instanceof Error) return this.scrubError(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.scrubDeep(v)) as T;
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrubDeep(v)])) as T;
    }
    return value;
  }

  /** Scrubs an error in place, keeping its class (an ApplicationFailure stays one, with its type and retryability). */
  scrubError<E>(err: E): E {
    for (let e: unknown = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
      e.message = this.scrub(e.message);
      if (e.stack) e.stack = this.scrub(e.stack);
    }
    return err;
  }

  /** For Worker.create: every activity's results and failures leave it scrubbed. */
  interceptors(): { activity: (() => { inbound: ActivityInboundCallsInterceptor })[] } {
    return { activity: [() => ({ inbound: this.activityInbound() })] };
  }

  private activityInbound(): ActivityInboundCallsInterceptor {
    return {
      execute: async (input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) => {
        try {
          return this.scrubDeep(await next(input));
        } catch (err) {
          throw this.scrubError(err);
        }
      },
    };
  }

  /** A logger that scrubs what it passes on. */
  logger(inner: Logger): Logger {
    const log = (level: LogLevel, message: string, meta?: LogMetadata) =>
      inner.log(level, this.scrub(message), meta && this.scrubDeep(meta));
    return {
      log,
      trace: (m, meta) => log('TRACE', m, meta),
      debug: (m, meta) => log('DEBUG', m, meta),
      info: (m, meta) => log('INFO', m, meta),
      warn: (m, meta) => log('WARN', m, meta),
      error: (m, meta) => log('ERROR', m, meta),
    };
  }
}
