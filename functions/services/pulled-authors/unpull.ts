/**
 * unpull job: the author fell below 90 % of the threshold. First page: clear the flag (new posts
 * are copied again); every page of followers: copy the author's newest BACKFILL_LIMIT posts into
 * their home feeds BEFORE dropping the author from their pulled sets — a read in between sees
 * both, deduplicated by rk — then take back the copies of posts deleted meanwhile.
 * Cost: ≤ followers × BACKFILL_LIMIT writes, once per flip; the hysteresis keeps flips rare.
 */
import { rkOf } from '../../model/range-key.js';
import { newestOriginals, removePulled } from '../../stores/feed-store.js';
import { getProfile, setPulled } from '../../stores/follow-store.js';
import { forEachLimit } from '../../platform/pool.js';
import { removeCopies, writeCopies } from '../home-feed-copies.js';
import { pushFeedItemsOf } from '../realtime/push.js';
import { backfillLimit } from '../follow-copies/backfill.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { followerPage, UNPULL_PAGE } from '../follower-pages.js';
import { settleWritten } from '../live-originals.js';
import { pullThresholds } from './thresholds.js';
import { unpullJob } from './unpull-job.js';

export async function unpull(job: JobOf<typeof unpullJob>): Promise<void> {
  const profile = await getProfile(job.author, { consistent: true });
  if (!job.cursor && profile.pulled) {
    if (profile.followers >= pullThresholds().unpullBelow) return; // back up before we ran
    await setPulled(job.author, false);
  } else if (profile.pulled) return; // pulled again meanwhile: its job owns the sets
  const followers = await followerPage(job, job.author, UNPULL_PAGE, { copiedOnly: true });
  const originals = await newestOriginals(job.author, backfillLimit(), { tombstones: false });
  const { written, copies } = await writeCopies(followers.flatMap((owner) => originals.map((source) => ({ owner, source }))));
  await forEachLimit(followers, 16, (f) => removePulled(f, job.author));
  const live = new Set(copies.map((c) => c.source));
  const groups = originals.filter((o) => live.has(o)).map((source) => ({ author: job.author, rk: rkOf(source.rk), source, owners: followers, written }));
  const { gone, kept } = await settleWritten(groups); // deleted meanwhile: taken back; edited meanwhile: rewritten
  await removeCopies(followers.flatMap((owner) => gone.map((g) => ({ owner, rk: g.rk }))));
  // The connected followers saw these posts already (merged at read, pushed when posted): the
  // copies replace them in place, so only the ones not deleted are announced — a client keeps one per id.
  await pushFeedItemsOf(kept.map((g) => ({ copies: g.owners.map((owner) => ({ owner, source: g.source })), seq: g.written })));
}

export const unpullRunner: JobRunner<typeof unpullJob> = { def: unpullJob, run: unpull };
