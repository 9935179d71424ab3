/**
 * The one place that turns errors into HTTP responses: known `DomainError`s become RFC 9457
 * `application/problem+json` bodies, their status decided here from their code; anything else is
 * logged and becomes a bare 500 that leaks nothing about the failure.
 */
import { DomainError, type DomainErrorCode, ValidationError } from '../model/errors.js';
import { logger } from '../platform/logger.js';
import { MethodNotAllowedError } from './errors.js';
import type { HttpResult } from './types.js';

/** HTTP status of each domain error code. */
export const STATUS_OF: Record<DomainErrorCode, number> = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
};

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
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

export function problemResponse(error: unknown, instance?: string): HttpResult {
  if (!(error instanceof DomainError)) {
    logger.error('unhandled error', { error: error as Error, instance });
    return problem({ type: 'about:blank', title: titles[500]!, status: 500 });
  }
  const status = STATUS_OF[error.code];
  const body: ProblemBody = {
    type: `urn:tickfeed:problem:${error.code}`,
    title: titles[status] ?? 'Error',
    status,
    detail: error.message,
    code: error.code,
    ...(instance ? { instance } : {}),
    ...(error instanceof ValidationError ? { errors: error.errors } : {}),
  };
  const headers: Record<string, string> =
    error instanceof MethodNotAllowedError ? { allow: error.allow.join(', ') } : {};
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  return problem(body, headers);
}

function problem(body: ProblemBody, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}
