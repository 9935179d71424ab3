/**
 * GET /realtime — where to open the WebSocket (and the server clock, a catch-up starting point);
 * GET /realtime/missed — the catch-up after a reconnect (services/realtime/catch-up.ts).
 */
import { REALTIME_URL_ENV } from '../../lib/defs/realtime.js';
import { callerId } from '../http/caller.js';
import { json, routes } from '../http/handler.js';
import { parseRequest } from '../http/parse-request.js';
import type { AuthedEvent } from '../http/types.js';
import { nowTicks } from '../platform/clock.js';
import { requireEnv } from '../platform/env.js';
import { missedCopies } from '../services/realtime/catch-up.js';

let url: string | undefined;
const realtimeUrl = () => (url ??= requireEnv(REALTIME_URL_ENV));

export const handler = routes<AuthedEvent>({
  'GET /realtime': async (event) => {
    callerId(event);
    return json(200, { url: realtimeUrl(), seq: nowTicks().toString() });
  },

  'GET /realtime/missed': async (event) => {
    const owner = callerId(event);
    const { query } = parseRequest(event, 'GET /realtime/missed');
    const page = await missedCopies(owner, {
      after: BigInt(query.after),
      until: BigInt(query.until),
      before: query.before === undefined ? undefined : BigInt(query.before),
    });
    return json(200, page);
  },
});
