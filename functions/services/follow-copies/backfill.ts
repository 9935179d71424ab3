/**
 * backfill job: copy a followee's newest BACKFILL_LIMIT posts into a new follower's home feed
 * (like Stream's activity_copy_limit). Nothing for a pulled followee: reads merge their posts.
 * Also after an unmute, and after an unmute or unblock with `tags`: first the followee's posts the
 * follower's push tag follows bring (tags/write-back.ts restoreAuthorTagCopies), followed or not. Then two re-checks take copies back: the follow was undone or muted
 * meanwhile (its cleanup may have run before us), or one of the posts was deleted meanwhile (its retract may have passed this feed);
 * a post edited meanwhile is copied again at its new version (live-originals.ts settleWritten).
 */
import { setting } from '../../../lib/defs/config.js';
import { authorFanoutCopies } from '../../model/copy-rule.js';
import { wantsPosts } from '../../model/follow-edge.js';
import { rkOf } from '../../model/range-key.js';
import { newestOriginals } from '../../stores/feed-store.js';
import { clearPending, getEdge, getProfile } from '../../stores/follow-store.js';
import { removeCopies, writeCopies } from '../home-feed-copies.js';
import { pushFeedItemsOf } from '../realtime/push.js';
import type { JobRunner } from '../jobs/define.js';
import { settleWritten } from '../live-originals.js';
import { restoreAuthorTagCopies } from '../tags/write-back.js';
import { backfillJob } from './backfill-job.js';

const backfillLimit = () => setting('BACKFILL_LIMIT');

export async function backfill(follower: string, followee: string, opts: { tags?: boolean } = {}): Promise<void> {
  if (opts.tags) await restoreAuthorTagCopies(follower, followee, backfillLimit());
  if (!wantsPosts(await getEdge(follower, followee))) return; // unfollowed or muted meanwhile
  if (authorFanoutCopies((await getProfile(followee, { consistent: true })).pulled)) {
    const originals = await newestOriginals(followee, backfillLimit(), { tombstones: false });
    const rks = originals.map((o) => rkOf(o.rk));
    const { written, copies } = await writeCopies(originals.map((source) => ({ owner: follower, source })));
    if (!wantsPosts(await getEdge(follower, followee))) {
      await removeCopies(rks.map((rk) => ({ owner: follower, rk })));
      return;
    }
    const groups = copies.map((c) => ({ author: followee, rk: rkOf(c.source.rk), source: c.source, owners: [follower], written }));
    const { gone, kept } = await settleWritten(groups);
    await removeCopies(gone.map((g) => ({ owner: follower, rk: g.rk })));
    await pushFeedItemsOf(kept.map((g) => ({ copies: [{ owner: follower, source: g.source }], seq: g.written })));
  }
  await clearPending(follower, followee, 'backfillPending', 'active');
}

export { backfillLimit };

export const backfillRunner: JobRunner<typeof backfillJob> = {
  def: backfillJob,
  run: (job) => backfill(job.follower, job.followee, { tags: job.tags === true }),
};
