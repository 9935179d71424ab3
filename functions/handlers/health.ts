/** GET /health — unauthenticated liveness probe. */
import { httpHandler, json } from '../http/handler.js';
import type { PublicEvent } from '../http/types.js';

export const handler = httpHandler<PublicEvent>(async () => json(200, { status: 'ok' }));
