/** Failures only the HTTP edge can have (methods, bodies); domain failures are in model/domain-errors.ts. */
import { DomainError } from '../model/domain-errors.js';

/** Codes of the failures that exist only at the HTTP edge. */
export type HttpErrorCode = 'method_not_allowed' | 'payload_too_large' | 'unsupported_media_type';

export class MethodNotAllowedError extends DomainError<HttpErrorCode> {
  constructor(
    message: string,
    readonly allow: readonly string[],
  ) {
    super('method_not_allowed', message);
  }
}

export class PayloadTooLargeError extends DomainError<HttpErrorCode> {
  constructor(readonly limitBytes: number) {
    super('payload_too_large', `The request body exceeds ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends DomainError<HttpErrorCode> {
  constructor() {
    super('unsupported_media_type', 'The request body must be application/json.');
  }
}
