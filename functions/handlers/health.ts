/** GET /health — unauthenticated liveness probe. */
import { json, publicHandler } from '../http/respond.js';
import type { PublicEvent } from '../http/types.js';

export const handler = publicHandler<PublicEvent>(async () => json(200, { status: 'ok' }));
