/**
 * purge job: after DELETE /activities (the same stream MODIFY that starts the retract job), remove
 * what others attached to the activity — its reactions, its comments — and its edit history, and hide it from every
 * notification feed. The counter was closed before the delete (services/posting.ts), so no add can
 * land after this runs. Reads the tombstone for the fields that name the notified users.
 */
import { activityIdOf } from '../../model/activity-id.js';
import { logger } from '../../platform/logger.js';
import { getOriginal } from '../../stores/feed-store.js';
import { closeCounter, purgeReactionsAndComments } from '../../stores/social-store.js';
import { TOMBSTONE_SECONDS } from '../../model/timeline-item.js';
import { hideFromNotifications } from '../notifications/hide.js';
import { eraseHistory } from '../edits/erase-history.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { purgeJob } from './purge-job.js';

export async function purge(job: JobOf<typeof purgeJob>): Promise<void> {
  const rk = BigInt(job.rk);
  const id = activityIdOf(job.author, rk);
  const original = await getOriginal(job.author, rk);
  if (!original) {
    // Erased (the erase purges its own) or past its tombstone: nothing of it is left to read.
    logger.warn('purge: no tombstone to purge from', { author: job.author });
    return;
  }
  // Closed before anything is read: from here no reaction or comment can land (the DELETE closed it
  // too; this covers a DELETE that stopped between its mark and its close).
  await closeCounter(id, Math.floor(Date.now() / 1000) + TOMBSTONE_SECONDS);
  const removed = await purgeReactionsAndComments(id);
  await eraseHistory(id, original);
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

export const purgeRunner: JobRunner<typeof purgeJob> = { def: purgeJob, run: purge };
