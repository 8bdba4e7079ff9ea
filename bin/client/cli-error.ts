/**
 * A failure the user can act on: printed as it stands (no "error:" added, no stack trace), and the
 * command exits 1. Messages follow kubectl's wording so that they read the same.
 */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** One object of a file could not be sent (no kind, a kind the API does not serve); the others still are. */
export class ObjectError extends CliError {
  constructor(message: string) {
    super(message);
    this.name = 'ObjectError';
  }
}
