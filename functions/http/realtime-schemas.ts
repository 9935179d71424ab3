/**
 * Request and response schemas of the realtime routes (GET /realtime, GET /realtime/missed).
 * See docs/realtime.md for the protocol these two serve.
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { activitySchema } from './response-schemas.js';
import { rangeKeySchema } from './schemas.js';

const ticksSchema = z
  .string()
  .regex(/^\d{1,20}$/, { message: 'Expected a seq (decimal digits) from a feed.item message or GET /realtime.' })
  .describe('A `seq`: server ticks, from a `feed.item` message or GET /realtime.');

export const realtimeInfoSchema = z
  .object({
    url: z.string().describe('Where to connect: open a WebSocket to `<url>?token=<JWT>`.'),
    seq: z.string().describe('The server clock now: catch up from here if no `feed.item` arrived yet (GET /realtime/missed).'),
  })
  .meta({ id: 'RealtimeInfo' });

export const missedQuery = z.strictObject({
  after: ticksSchema.describe("Copies written after this `seq` (the largest one received, or GET /realtime's)."),
  until: rangeKeySchema.describe('The oldest range key the client holds: the catch-up reads the feed from the top down to it.'),
  before: rangeKeySchema.optional().describe('Continue below this range key (`lastRangeKey` of the previous page).'),
});

export const missedPageSchema = z
  .object({
    items: z.array(activitySchema).describe('Copies written after `after`, newest first (a page may hold none and still continue).'),
    lastRangeKey: z.string().nullable().describe('Pass as `before` to read on; null when the range down to `until` is done.'),
  })
  .meta({ id: 'MissedPage' });
