/**
 * The fan-out worker's dispatcher: one file per job kind. Every step is idempotent (deterministic
 * keys), every loop is bounded by a page, and a job that cannot finish throws so its message comes
 * back (and, after maxReceiveCount, lands in the DLQ).
 */
import { backfill } from '../follow-copies/backfill.js';
import { cleanup, muteCleanup } from '../follow-copies/cleanup.js';
import { fanout } from '../fanout/fanout.js';
import type { Job } from './jobs.js';
import { applyNotifications } from '../notifications/batch.js';
import { eventsOfJob } from '../notifications/events.js';
import { eraseStep } from '../erase/erase.js';
import { pull } from '../pulled-authors/pull.js';
import { purge } from '../deleted-posts/purge.js';
import { retract } from '../deleted-posts/retract.js';
import { unpull } from '../pulled-authors/unpull.js';
import { runMigrationJob } from '../migrations/job.js';

export async function runJob(job: Job): Promise<void> {
  switch (job.kind) {
    case 'fanout':
      return fanout(job);
    case 'retract':
      return retract(job);
    case 'backfill':
      return backfill(job.follower, job.followee);
    case 'cleanup':
      return cleanup(job.follower, job.followee, job.final === true);
    case 'pull':
      return pull(job);
    case 'unpull':
      return unpull(job);
    case 'notify':
      return applyNotifications(job.recipient, eventsOfJob(job));
    case 'purge':
      return purge(job);
    case 'muteCleanup':
      return muteCleanup(job.follower, job.followee);
    case 'erase':
      return eraseStep(job.user, job.phase);
    case 'migrate':
      return runMigrationJob(job);
  }
}
