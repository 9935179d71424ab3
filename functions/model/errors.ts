/**
 * Named, expected failures of the domain. Each carries a stable `code` (tests assert on it) and
 * context; none knows about HTTP — the edge (functions/http/problem.ts) maps codes to statuses.
 * Anything that is not a `DomainError` is a bug and becomes a bare 500 there.
 */
export interface FieldError {
  /** Path of the offending field, e.g. `body.attributes.score` or `query.limit`. */
  readonly field: string;
  readonly message: string;
}

export type DomainErrorCode =
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(
    message: string,
    readonly errors: readonly FieldError[] = [],
  ) {
    super('validation_failed', message);
  }
}

/** A cursor this API did not hand out: a 400 naming the field and what it should have been. */
export const invalidCursor = (field: string, expected: string) => new ValidationError('Invalid cursor.', [{ field, message: expected }]);

export class UnauthorizedError extends DomainError {
  constructor(message = 'A valid bearer token is required.') {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}
