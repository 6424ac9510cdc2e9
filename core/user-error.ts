// The one kind of error clients show as it is: a sentence for the user, no stack, exit code 1.

/**
 * What went wrong, for clients that answer in codes (the HTTP API: 400, 404, 409, 503):
 * `invalid` input, an id `not_found`, a request the conversation `refused` in its state, Temporal or a worker
 * `unavailable`.
 */
export type UserErrorKind = 'invalid' | 'not_found' | 'refused' | 'unavailable';

/** An error for the user: printed as one line, exit code 1. */
export class UserError extends Error {
  override name = 'UserError';

  constructor(
    message: string,
    readonly kind: UserErrorKind = 'invalid',
  ) {
    super(message);
  }
}
