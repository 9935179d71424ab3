import * as z from 'zod';
import { defineJob } from '../jobs/define.js';
import { cursor, rk, userId } from '../jobs/fields.js';

/** A DynamoDB stream image (attribute-value JSON). Numbers stay strings: exact for 31-digit keys. */
export const image = z.record(z.string(), z.unknown()).refine((i) => (i.rk as { N?: unknown } | undefined)?.N !== undefined, 'image needs rk');

/**
 * Copy a post into the feeds of one page of the author's followers, then the next page (fanout.ts).
 * Self-contained: it carries the post itself (its stream image) and a follower-page cursor, so a
 * worker needs no lookup to write copies, and a 1M-follower author becomes many one-page jobs.
 */
export const fanoutJob = defineJob('fanout', { lane: 'fanout', schema: { author: userId, rk, image, cursor } });
