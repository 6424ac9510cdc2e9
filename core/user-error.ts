// The one kind of error clients show as it is: a sentence for the user, no stack, exit code 1.

/**
 * What went wrong, for clients that answer in codes (the HTTP API: 400, 404, 409, 503):
 * `invalid` input, an id `not_found`, a request the conversation `refused` in its state, Temporal or a worker
 * `unavailable`.
 */
export type UserErrorKind = 'invalid' | 'not_found' | 'refused' | 'unavailable';

/** The HTTP status of each kind, for every route of the API (its REST routes and A2A's). */
export const HTTP_STATUS = { invalid: 400, not_found: 404, refused: 409, unavailable: 503 } as const satisfies Record<
  UserErrorKind,
  number
>;

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
