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
  'validation_failed' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'precondition_failed' | 'rate_limited' | 'unavailable' | 'bad_gateway';

/** `C`: the codes of a family of errors; the HTTP edge adds its own (functions/http/http-errors.ts). */
export class DomainError<C extends string = DomainErrorCode> extends Error {
  constructor(
    readonly code: C,
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

/**
 * A `?cursor=` this API did not hand out: the one 400 every non-feed list (and the export) answers
 * for it. Feeds page by range key and refuse a bad one in their query schema instead.
 */
export const invalidCursor = () => new ValidationError('Invalid cursor.', [{ field: 'query.cursor', message: 'a `next` from a previous page' }]);

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

/** A conditional request (`If-Match`) named a version that is no longer current: nothing was done. */
export class PreconditionFailedError extends DomainError {
  constructor(message: string) {
    super('precondition_failed', message);
  }
}

/** The caller used up a rate limit (lib/defs/rate-limits.ts): nothing was done; retry after the wait. */
export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

/** Too much contention (or throttling) to finish now, after bounded retries: retry after the wait. */
export class UnavailableError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super('unavailable', message, options);
  }
}

/** A service tickfeed called for the caller (a feed generator) failed, timed out or answered junk: nothing was changed. */
export class BadGatewayError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('bad_gateway', message, options);
  }
}
