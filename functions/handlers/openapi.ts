/** GET /openapi.json — unauthenticated; generated once per container from the request schemas. */
import { openApiDocument } from '../http/openapi-document.js';
import { json, publicHandler } from '../http/respond.js';
import type { PublicEvent } from '../http/types.js';

const body = openApiDocument();

export const handler = publicHandler<PublicEvent>(async () => json(200, body, { 'cache-control': 'public, max-age=300' }));
