/**
 * A request checked against its operation's entry in the schema table (operations.ts): path
 * parameters, then the query string, then the JSON body — each only if the entry declares it,
 * each a 400 (413/415 for the body's size and type, request.ts) naming the offending fields.
 * handler.ts calls it with the operation the event's route key names, before the route's function.
 *
 * @example
 *   const { body } = parseRequest(event, 'postActivity'); // typed from postActivityBody
 */
import type { z } from 'zod';
import type { OperationId } from '../../lib/defs/routes.js';
import { type OperationSpec, operations } from './operations.js';
import { assertCarriable, jsonBody, queryParams, validate } from './request.js';
import { LIMITS } from './schemas.js';
import type { HttpEvent } from './types.js';

type Part<O, K extends 'path' | 'query' | 'body'> = O extends { readonly [P in K]: infer S extends z.ZodType } ? z.output<S> : undefined;

export interface ParsedRequest<O> {
  readonly path: Part<O, 'path'>;
  readonly query: Part<O, 'query'>;
  readonly body: Part<O, 'body'>;
}

/** What the request of operation `K` holds once parsed. */
export type RequestOf<K extends OperationId> = ParsedRequest<(typeof operations)[K]>;

export function parseRequest<K extends OperationId>(event: HttpEvent, id: K): RequestOf<K> {
  const op: OperationSpec = operations[id];
  if (op.path) assertCarriable(event.pathParameters ?? {}, 'path');
  const path = op.path && validate(op.path, event.pathParameters ?? {}, 'path', 'Invalid path parameters.');
  const query = op.query && queryParams(event, op.query);
  const empty = (event.body ?? '') === '';
  const body = op.body && !(op.bodyOptional && empty) ? jsonBody(event, op.body, op.bodyBytes ?? LIMITS.bodyBytes, op.bodyTypes) : undefined;
  return { path, query, body } as RequestOf<K>;
}
