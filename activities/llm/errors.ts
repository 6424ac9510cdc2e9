// Provider errors → typed Temporal failures with explicit retryability. Temporal owns retries.
import { ApplicationFailure } from '@temporalio/activity';
import type { Duration } from '@temporalio/common';
import { APICallError, InvalidPromptError, LoadAPIKeyError, MissingToolResultsError, NoSuchModelError } from 'ai';
import { FailureTypes } from '../../core/activity-types';
import { keySettings } from './model';

export function toLlmFailure(err: unknown, provider: string, timeoutMs?: number): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  const message = err instanceof Error ? err.message : String(err);
  // Our own per-call limit: a model that hangs is a timeout of the model, worth another try.
  if (isTimeout(err)) {
    const limit = timeoutMs ? ` within ${Math.round(timeoutMs / 1000)} s (MODEL_TIMEOUT)` : '';
    return ApplicationFailure.retryable(`The ${provider} model did not answer${limit}.`, FailureTypes.LlmUnavailable);
  }
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status === 401 || status === 403) {
      return ApplicationFailure.nonRetryable(
        `The ${provider} API refused the credentials (HTTP ${status}); check ${keySettings(provider)}. ${message}`,
        FailureTypes.LlmAuth,
      );
    }
    if (status === 404) {
      return ApplicationFailure.nonRetryable(
        `The ${provider} API does not know this model or endpoint (HTTP 404); check LLM_MODEL and LLM_BASE_URL. ${message}`,
        FailureTypes.LlmMisconfigured,
      );
    }
    // A 200 whose stream broke while it was read: the connection dropped mid-reply.
    if (status !== undefined && status < 300)
      return ApplicationFailure.retryable(
        `The ${provider} API's reply broke off mid-stream (${innermost(err)}); nothing of it is kept.`,
        FailureTypes.LlmUnavailable,
      );
    const delay = retryAfter(err.responseHeaders) ?? retryInfo(err.responseBody);
    if (status === 429) return rateLimited(provider, `HTTP 429`, message, delay);
    if (isOverloaded(status, err.data ?? err.responseBody))
      return overloaded(provider, `HTTP ${status}`, message, delay);
    if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 409) {
      return ApplicationFailure.nonRetryable(
        `The ${provider} API rejected the request (HTTP ${status}). ${message}`,
        FailureTypes.LlmBadRequest,
      );
    }
    return ApplicationFailure.create({
      message: `The ${provider} API failed (HTTP ${status ?? 'no status'}). ${message}`,
      type: FailureTypes.LlmUnavailable,
      nextRetryDelay: delay,
    });
  }
  // An error event inside a 200 stream (the provider's error object, kept as the cause by reply-reader.ts).
  const streamed = streamError(err);
  if (streamed?.rateLimited) return rateLimited(provider, 'in the stream', message);
  if (streamed?.overloaded) return overloaded(provider, 'in the stream', message);
  if (LoadAPIKeyError.isInstance(err))
    return ApplicationFailure.nonRetryable(`${message} Set ${keySettings(provider)}.`, FailureTypes.LlmMisconfigured);
  if (NoSuchModelError.isInstance(err))
    return ApplicationFailure.nonRetryable(`${message} Check LLM_MODEL.`, FailureTypes.LlmMisconfigured);
  if (InvalidPromptError.isInstance(err) || MissingToolResultsError.isInstance(err)) {
    // Our request is malformed: retrying the same request cannot help.
    return ApplicationFailure.nonRetryable(`Invalid request to ${provider}: ${message}`, FailureTypes.LlmBadRequest);
  }
  // Network failures, timeouts, malformed responses: worth another try.
  return ApplicationFailure.retryable(`Calling ${provider} failed: ${message}`, FailureTypes.LlmUnavailable);
}

function rateLimited(provider: string, where: string, message: string, delay?: Duration): ApplicationFailure {
  return ApplicationFailure.create({
    message: `The ${provider} API is rate limiting (${where}). ${message}`,
    type: FailureTypes.LlmRateLimited,
    nextRetryDelay: delay,
  });
}

/** Busy, not broken: worth another try, after the provider's retry-after when it gives one. */
function overloaded(provider: string, where: string, message: string, delay?: Duration): ApplicationFailure {
  return ApplicationFailure.create({
    message: `The ${provider} API is overloaded (${where}). ${message}`,
    type: FailureTypes.LlmUnavailable,
    nextRetryDelay: delay,
  });
}

/**
 * Overloaded in each provider's words: Anthropic's 529 (`overloaded_error`), OpenAI's 503 (`server_is_overloaded`),
 * Gemini's 503 (`UNAVAILABLE`, "The model is overloaded").
 */
function isOverloaded(status: number | undefined, body: unknown): boolean {
  if (status === 529 || status === 503) return true;
  return /overload/i.test(typeof body === 'string' ? body : JSON.stringify(body ?? ''));
}

/** What an error object a provider streamed says of itself (OpenAI's carry a status code, Anthropic's a type). */
function streamError(err: unknown): { rateLimited: boolean; overloaded: boolean } | undefined {
  for (
    let e = err as Record<string, unknown> | undefined, depth = 0;
    e && typeof e === 'object' && depth < 5;
    depth++
  ) {
    const inner = (e.error && typeof e.error === 'object' ? e.error : e) as Record<string, unknown>;
    const words = [inner.type, inner.code, inner.status].filter((w) => typeof w === 'string').join(' ');
    const status = typeof e.statusCode === 'number' ? e.statusCode : undefined;
    if (status !== undefined || words) {
      return {
        rateLimited: status === 429 || /rate_limit|RESOURCE_EXHAUSTED/i.test(words),
        overloaded:
          status === 503 || status === 529 || /overload|UNAVAILABLE/i.test(`${words} ${String(inner.message)}`),
      };
    }
    e = e.cause as typeof e;
  }
  return undefined;
}

/** The root cause's words (fetch's "terminated" says less than its cause's "other side closed"). */
function innermost(err: Error): string {
  const words: string[] = [];
  // Not `instanceof`: fetch's errors come from Node's own realm.
  for (let e: unknown = err.cause, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const message = (e as Error).message;
    if (typeof message === 'string' && message) words.push(message);
    e = (e as Error).cause;
  }
  return words.join(': ') || err.message;
}

/** The per-call timeout fired (llm-activities.ts callTimeout): a TimeoutError, possibly wrapped by the SDK or fetch. */
function isTimeout(err: unknown): boolean {
  // Not `instanceof Error`: fetch's DOMException may come from another realm.
  for (
    let e = err as { name?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (e.name === 'TimeoutError' || /aborted due to timeout/i.test(String(e.message))) return true;
  }
  return false;
}

/** Google's way: a `google.rpc.RetryInfo` detail in the error body (`"retryDelay": "2s"`); capped at a minute. */
function retryInfo(body: string | undefined): Duration | undefined {
  const seconds = Number(/"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body ?? '')?.[1]);
  return Number.isFinite(seconds) && seconds > 0 ? `${Math.min(seconds, 60)} seconds` : undefined;
}

/** Honours `retry-after-ms` (OpenAI) and `retry-after` in seconds or as an HTTP date; capped at a minute. */
function retryAfter(headers: Record<string, string> | undefined): Duration | undefined {
  const ms = Number(headers?.['retry-after-ms']);
  let seconds = Number.isFinite(ms) && ms > 0 ? ms / 1000 : Number(headers?.['retry-after']);
  if (!Number.isFinite(seconds) && headers?.['retry-after'])
    seconds = (Date.parse(headers['retry-after']) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? `${Math.min(seconds, 60)} seconds` : undefined;
}
