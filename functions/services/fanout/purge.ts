/**
 * purge job: after DELETE /activities (the same stream MODIFY that starts the retract job), remove
 * what others attached to the activity — its reactions, its comments — and hide it from every
 * notification feed. The counter was closed before the delete (services/posting.ts), so no add can
 * land after this runs. Reads the tombstone for the fields that name the notified users.
 */
import { activityIdOf } from '../../model/activity-id.js';
import { logger } from '../../platform/logger.js';
import { getOriginal } from '../../stores/feed-store.js';
import { purgeReactionsAndComments } from '../../stores/social-store.js';
import { hideFromNotifications } from '../notifications/hide.js';
import type { Job } from './jobs.js';

export async function purge(job: Extract<Job, { kind: 'purge' }>): Promise<void> {
  const rk = BigInt(job.rk);
  const removed = await purgeReactionsAndComments(activityIdOf(job.author, rk));
  const original = await getOriginal(job.author, rk);
  if (!original) {
    logger.warn('purge: tombstone already expired; notifications about it stay until their own retention', { author: job.author });
    return;
  }
  await hideFromNotifications({
    author: job.author,
    rk,
    verb: String(original.verb),
    object: typeof original.object === 'string' ? original.object : undefined,
    content: typeof original.content === 'string' ? original.content : undefined,
    to: Array.isArray(original.to) ? (original.to as string[]) : undefined,
  });
  logger.info('purged a deleted activity', { author: job.author, ...removed });
}
