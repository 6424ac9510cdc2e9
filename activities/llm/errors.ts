// Provider errors → typed Temporal failures with explicit retryability. Temporal owns retries.
import { ApplicationFailure } from '@temporalio/activity';
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
    if (status === 429) {
      return ApplicationFailure.create({
        message: `The ${provider} API is rate limiting (HTTP 429). ${message}`,
        type: FailureTypes.LlmRateLimited,
        nextRetryDelay: retryAfter(err.responseHeaders),
      });
    }
    if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 409) {
      return ApplicationFailure.nonRetryable(
        `The ${provider} API rejected the request (HTTP ${status}). ${message}`,
        FailureTypes.LlmBadRequest,
      );
    }
    return ApplicationFailure.retryable(
      `The ${provider} API failed (HTTP ${status ?? 'no status'}). ${message}`,
      FailureTypes.LlmUnavailable,
    );
  }
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

/** Honours `retry-after-ms` (OpenAI) and `retry-after` in seconds or as an HTTP date; capped at a minute. */
function retryAfter(headers: Record<string, string> | undefined): string | undefined {
  const ms = Number(headers?.['retry-after-ms']);
  let seconds = Number.isFinite(ms) && ms > 0 ? ms / 1000 : Number(headers?.['retry-after']);
  if (!Number.isFinite(seconds) && headers?.['retry-after'])
    seconds = (Date.parse(headers['retry-after']) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? `${Math.min(seconds, 60)} seconds` : undefined;
}
