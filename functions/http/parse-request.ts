/**
 * A request checked against its route's entry in the route → schema table (operations.ts): path
 * parameters, then the query string, then the JSON body — each only if the entry declares it,
 * each a 400 (413/415 for the body's size and type, request.ts) naming the offending fields.
 *
 * @example
 *   const { body } = parseRequest(event, 'POST /activities'); // typed from postActivityBody
 */
import type { z } from 'zod';
import { type OperationKey, type OperationSpec, operations } from './operations.js';
import { assertCarriable, jsonBody, queryParams, validate } from './request.js';
import { LIMITS } from './schemas.js';
import type { HttpEvent } from './types.js';

type Part<O, K extends 'path' | 'query' | 'body'> = O extends { readonly [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

export interface ParsedRequest<O> {
  readonly path: Part<O, 'path'>;
  readonly query: Part<O, 'query'>;
  readonly body: Part<O, 'body'>;
}

export function parseRequest<K extends OperationKey>(event: HttpEvent, key: K): ParsedRequest<(typeof operations)[K]> {
  const op: OperationSpec = operations[key];
  if (op.path) assertCarriable(event.pathParameters ?? {}, 'path');
  const path = op.path && validate(op.path, event.pathParameters ?? {}, 'path', 'Invalid path parameters.');
  const query = op.query && queryParams(event, op.query);
  const empty = (event.body ?? '') === '';
  const body = op.body && !(op.bodyOptional && empty) ? jsonBody(event, op.body, op.bodyBytes ?? LIMITS.bodyBytes) : undefined;
  return { path, query, body } as ParsedRequest<(typeof operations)[K]>;
}
