/**
 * getRealtime: where to open the WebSocket (and the server clock, a catch-up starting point);
 * getMissedFeedItems: the catch-up after a reconnect (services/realtime/catch-up.ts).
 */
import { REALTIME_URL_ENV } from '../../lib/defs/realtime.js';
import { feedPage } from '../http/feed-page.js';
import { json, routes } from '../http/handler.js';
import { nowTicks } from '../platform/clock.js';
import { requireEnv } from '../platform/env.js';
import { missedCopies } from '../services/realtime/catch-up.js';

let url: string | undefined;
const realtimeUrl = () => (url ??= requireEnv(REALTIME_URL_ENV));

export const handler = routes('realtime', {
  getRealtime: async () => json(200, { url: realtimeUrl(), seq: nowTicks().toString() }),

  getMissedFeedItems: async ({ caller, query }) => {
    const page = await missedCopies(caller.userId, {
      after: BigInt(query.after),
      until: BigInt(query.until),
      before: query.before === undefined ? undefined : BigInt(query.before),
    });
    return json(200, feedPage(page));
  },
});
