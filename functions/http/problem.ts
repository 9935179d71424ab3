/**
 * The one place that turns errors into HTTP responses: known `DomainError`s become RFC 9457
 * `application/problem+json` bodies, their status decided here from their code; anything else is
 * logged and becomes a bare 500 that leaks nothing about the failure.
 * Contention past its retries (platform/retry.ts), batch writes left unprocessed and throttling
 * the SDK's own retries did not absorb are not bugs: a 503 with `Retry-After`, as is a rate limit's 429.
 */
import { DomainError, type DomainErrorCode, RateLimitedError, UnavailableError, ValidationError } from '../model/domain-errors.js';
import { isThrottling, UnprocessedWritesError } from '../platform/dynamo/dynamo-errors.js';
import { logger } from '../platform/logger.js';
import { RetriesExhaustedError } from '../platform/retry.js';
import { type HttpErrorCode, MethodNotAllowedError } from './http-errors.js';
import type { HttpResult } from './types.js';

/** HTTP status of each domain error code, and of the edge's own. */
export const STATUS_OF: Record<DomainErrorCode | HttpErrorCode, number> = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  bad_gateway: 502,
  unavailable: 503,
};

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code?: string;
  errors?: readonly { field: string; message: string }[];
}

/** A transient failure the caller may retry, as the domain error that says so; else the error itself. */
function transientAsDomain(error: unknown): unknown {
  if (error instanceof RetriesExhaustedError) {
    logger.warn('contention past its retries', { what: error.what, attempts: error.attempts });
    return new UnavailableError('Too many concurrent changes to the same data; retry shortly.', error.retryAfterSeconds, { cause: error });
  }
  if (error instanceof UnprocessedWritesError || isThrottling(error)) {
    logger.warn('throttled past its retries', { error: error as Error });
    return new UnavailableError('The service is busy; retry shortly.', 1, { cause: error });
  }
  return error;
}

export function problemResponse(thrown: unknown, instance?: string): HttpResult {
  const error = transientAsDomain(thrown);
  if (!(error instanceof DomainError)) {
    logger.error('unhandled error', { error: error as Error, instance });
    return problem({ type: 'about:blank', title: titles[500]!, status: 500 });
  }
  // instanceof narrows to DomainError<any>: name the codes it can carry.
  const code = (error as DomainError<DomainErrorCode | HttpErrorCode>).code;
  const status = STATUS_OF[code] ?? 500;
  const body: ProblemBody = {
    type: `urn:tickfeed:problem:${code}`,
    title: titles[status] ?? 'Error',
    status,
    detail: error.message,
    code,
    ...(instance ? { instance } : {}),
    ...(error instanceof ValidationError ? { errors: error.errors } : {}),
  };
  const headers: Record<string, string> = error instanceof MethodNotAllowedError ? { allow: error.allow.join(', ') } : {};
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  if (error instanceof RateLimitedError || error instanceof UnavailableError) headers['retry-after'] = String(Math.max(1, Math.ceil(error.retryAfterSeconds)));
  return problem(body, headers);
}

function problem(body: ProblemBody, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}
