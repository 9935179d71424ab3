/** Failures only the HTTP edge can have (methods, bodies); domain failures are in model/errors.ts. */
import { DomainError } from '../model/errors.js';

export class MethodNotAllowedError extends DomainError {
  constructor(
    message: string,
    readonly allow: readonly string[],
  ) {
    super('method_not_allowed', message);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(readonly limitBytes: number) {
    super('payload_too_large', `The request body exceeds ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends DomainError {
  constructor() {
    super('unsupported_media_type', 'The request body must be application/json.');
  }
}
