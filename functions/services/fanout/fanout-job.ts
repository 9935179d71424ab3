import * as z from 'zod';
import { defineJob } from '../jobs/define.js';
import { cursor, late, rk, userId } from '../jobs/fields.js';

/** A DynamoDB stream image (attribute-value JSON). Numbers stay strings: exact for 31-digit keys. */
export const image = z.record(z.string(), z.unknown()).refine((i) => (i.rk as { N?: unknown } | undefined)?.N !== undefined, 'image needs rk');

/**
 * Copy a post into the feeds of one page of the author's followers, then the next page (author-fanout.ts).
 * It carries the post as first written (its stream image) and a follower-page cursor; the pages copy
 * the original as their first check reads it (its latest version: author-fanout.ts). So a
 * worker needs no lookup to write copies, and a 1M-follower author becomes many one-page jobs.
 * Every post's first page runs on the fanout lane; the further pages on fanoutTail, so a burst of
 * large fan-outs never delays the next post's first page.
 */
export const fanoutJob = defineJob('fanout', { schema: { author: userId, rk, image, cursor, late } });
