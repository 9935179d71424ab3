/**
 * The jobs the bus carries; bus.ts routes each to its lane (lib/defs/lanes.ts). Small and
 * self-contained: a fan-out job carries the post itself (its stream image) and a follower-page cursor, so a worker needs no lookup to write copies, and a
 * 1M-follower author becomes many one-page jobs chained by continuation messages.
 *
 *   fanout   copy a post into the feeds of one page of the author's followers, then the next page
 *   retract  delete a post's copies (same rk) from one page of followers, then the next page
 *            (the author's own copy on the first); the original stays a hidden tombstone until
 *            its TTL, so late backfills and cleanups still see that it was deleted
 *   backfill copy a followee's recent posts into a new follower's feed
 *   cleanup  delete an unfollowed user's posts from the ex-follower's feed
 *   pull     author crossed the threshold up: mark them pulled, add them to followers' pulled sets
 *   unpull   author fell below it: copy their recent posts to followers, drop the pulled sets
 *   notify   apply notification events to one recipient's groups (services/notifications/)
 *   muteCleanup  remove a muted followee's posts from the muter's feed (the follow stays)
 *   erase    one bounded step of erasing a user (DELETE /me), then the next (services/erase/)
 *   purge    after DELETE /activities: remove the activity's reactions, comments and the
 *            notifications about it
 *   migrate  one slice of one Scan segment of a data-model migration, then the next (services/migrations/job.ts)
 */
import * as z from 'zod'; // not `{ z }`: a bundle would keep all of zod, every locale (test/infra/bundle-contents.test.ts)
import { ERASE_PHASES } from '../../model/erasure.js';
import { NOTIFICATION_KINDS } from '../../model/notification.js';
import { isValidUserId } from '../../model/user-id.js';
import { type JobKind, jobLanes, type LaneId } from '../../../lib/defs/lanes.js';

/** A job body that does not parse: a poison message, it fails every delivery and ends in the DLQ. */
export class InvalidJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidJobError';
  }
}

const userId = z.string().refine(isValidUserId, 'invalid user id');
const cursor = z.string().min(1).optional();
const rk = z.string().regex(/^\d{1,38}$/);
/** A DynamoDB stream image (attribute-value JSON). Numbers stay strings: exact for 31-digit keys. */
const image = z.record(z.string(), z.unknown()).refine((i) => (i.rk as { N?: unknown } | undefined)?.N !== undefined, 'image needs rk');

/** A notification event on the wire (model/notification.ts NotificationEvent; ticks as a string). */
export const notificationEventSchema = z.object({
  // Absent in jobs queued before kinds existed: then the verb says (model/notification.ts kindOfVerb).
  kind: z.enum(NOTIFICATION_KINDS).optional(),
  verb: z.string().min(1).max(64),
  object: z.string().min(1).max(2048),
  actor: userId,
  id: z.string().min(1).max(4096),
  ticks: z.string().regex(/^\d{1,20}$/),
  source: z.string().min(1).max(2048).optional(),
});
export type WireNotificationEvent = z.infer<typeof notificationEventSchema>;
/** Events per notify job: their claims and the group fit one transaction (100 items). */
export const MAX_JOB_EVENTS = 20;

export const jobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fanout'), author: userId, rk, image, cursor }),
  z.object({ kind: z.literal('retract'), author: userId, rk, cursor }),
  z.object({ kind: z.literal('backfill'), follower: userId, followee: userId }),
  z.object({ kind: z.literal('cleanup'), follower: userId, followee: userId, final: z.boolean().optional() }),
  z.object({ kind: z.literal('pull'), author: userId, cursor }),
  z.object({ kind: z.literal('unpull'), author: userId, cursor }),
  z.object({ kind: z.literal('notify'), recipient: userId, events: z.array(notificationEventSchema).min(1).max(MAX_JOB_EVENTS) }),
  z.object({ kind: z.literal('purge'), author: userId, rk }),
  z.object({ kind: z.literal('muteCleanup'), follower: userId, followee: userId }),
  z.object({ kind: z.literal('erase'), user: userId, phase: z.enum(ERASE_PHASES) }),
  z.object({ kind: z.literal('migrate'), to: z.number().int().min(2).max(1000), segment: z.number().int().min(0), totalSegments: z.number().int().min(1).max(1000) }),
]);

export type Job = z.infer<typeof jobSchema>;
// The lanes' list of kinds and this schema's must agree (a kind without a lane fails to compile).
const _everyKindHasALane: Record<Job['kind'], true> & Record<JobKind, true> = {} as Record<JobKind, true>;
void _everyKindHasALane;

export function parseJob(body: string): Job {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    throw new InvalidJobError(`job is not JSON: ${body.slice(0, 80)}`, { cause: error });
  }
  const parsed = jobSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidJobError(`invalid job: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data;
}

/**
 * The job, if `lane` may run it: its kind's lane, or maintenance (which also runs every settle
 * re-run). Anything else was sent or redriven to the wrong queue: refused, so it ends in the DLQ.
 */
export function assertLane(job: Job, lane: LaneId): Job {
  if (jobLanes[job.kind] !== lane && lane !== 'maintenance') {
    throw new InvalidJobError(`a ${job.kind} job belongs to the ${jobLanes[job.kind]} lane, not ${lane}`);
  }
  return job;
}
