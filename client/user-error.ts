// The one kind of error clients show as it is: a sentence for the user, no stack, exit code 1.

/** An error for the user: printed as one line, exit code 1. */
export class UserError extends Error {
  override name = 'UserError';
}
