/**
 * pull job: the author crossed FANOUT_PULL_THRESHOLD followers. First page: set the profile's
 * `pulled` flag (from then on new posts are not copied); every page: add the author to each
 * follower's pulled set (their home-feed head), only while that follower still follows.
 */
import { nowTicks } from '../../platform/clock.js';
import { addPulledWhileFollowing, getProfile, markPulledSince, setPulled } from '../../stores/follow-store.js';
import { forEachLimit } from '../../platform/pool.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { FOLLOWER_PAGE, followerPage } from '../follower-pages.js';
import { pullJob } from './pull-job.js';
import { pullThresholds } from './thresholds.js';

export async function pull(job: JobOf<typeof pullJob>): Promise<void> {
  const profile = await getProfile(job.author, { consistent: true });
  if (!job.cursor) {
    if (!profile.pulled) {
      if (profile.followers < pullThresholds().pullAt) return; // fell back below before we ran
      await setPulled(job.author, true);
      await markPulledSince(job.author, nowTicks()); // read after the commit: see markPulledSince
    }
  } else if (!profile.pulled) return; // unpulled meanwhile: its job cleans up
  const followers = await followerPage(job, job.author, FOLLOWER_PAGE, { copiedOnly: true });
  await forEachLimit(followers, 16, (f) => addPulledWhileFollowing(f, job.author));
}

export const pullRunner: JobRunner<typeof pullJob> = { def: pullJob, run: pull };
