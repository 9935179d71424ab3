/**
 * Named, expected failures. Each carries a stable `code` (tests assert on it) and the HTTP
 * status the edge maps it to. Anything that is not an `AppError` is a bug and becomes a bare 500.
 */
export interface FieldError {
  /** JSON pointer-ish path of the offending field, e.g. `attributes.score` or `query.limit`. */
  readonly field: string;
  readonly message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(
    message: string,
    readonly errors: readonly FieldError[] = [],
  ) {
    super('validation_failed', 400, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'A valid bearer token is required.') {
    super('unauthorized', 401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super('forbidden', 403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super('not_found', 404, message);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(
    message: string,
    readonly allow: readonly string[],
  ) {
    super('method_not_allowed', 405, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super('conflict', 409, message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(readonly limitBytes: number) {
    super('payload_too_large', 413, `The request body exceeds ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super('unsupported_media_type', 415, 'The request body must be application/json.');
  }
}

/** Configuration that cannot be parsed: fails cold start / `cdk synth` / `npm start` loudly. */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
    this.name = 'ConfigError';
  }
}
