/**
 * The one place that turns errors into HTTP responses: known `AppError`s become RFC 9457
 * `application/problem+json` bodies; anything else is logged and becomes a bare 500 that leaks
 * nothing about the failure.
 */
import { AppError, MethodNotAllowedError, ValidationError } from '../core/errors.js';
import { logger } from '../core/logger.js';
import type { HttpResult } from './types.js';

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
  if (!(error instanceof AppError)) {
    logger.error('unhandled error', { error: error as Error, instance });
    return problem({ type: 'about:blank', title: titles[500]!, status: 500 });
  }
  const body: ProblemBody = {
    type: `urn:tickfeed:problem:${error.code}`,
    title: titles[error.status] ?? 'Error',
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(instance ? { instance } : {}),
    ...(error instanceof ValidationError ? { errors: error.errors } : {}),
  };
  const headers: Record<string, string> =
    error instanceof MethodNotAllowedError ? { allow: error.allow.join(', ') } : {};
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  return problem(body, headers);
}

function problem(body: ProblemBody, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
    body: JSON.stringify(body),
  };
}
