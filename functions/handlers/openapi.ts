/** GET /openapi.json — unauthenticated; the document is built once per container. */
import { httpHandler, json } from '../http/handler.js';
import { openApiDocument } from '../http/openapi.js';
import type { PublicEvent } from '../http/types.js';

const document = openApiDocument();

export const handler = httpHandler<PublicEvent>(async () => json(200, document, { 'cache-control': 'public, max-age=300' }));
