/**
 * retract job: after DELETE /activities marked an original, delete its copies (same rk, no
 * lookup) from one page of the author's followers — and the author's own on the first page. The
 * original stays as a hidden tombstone until its TTL, so a backfill, unpull or cleanup that runs
 * late still sees that the post was deleted (see fanout/author-fanout.ts and follow-copies/backfill.ts for the other half).
 *
 * A post of a pulled author was never copied to followers (reads merge it): when the author has
 * been pulled since before the post, with no unpull since, only the own copy goes — no page of
 * deletes for copies that were never written.
 */
import { ticksOfRangeKey } from '../../model/range-key.js';
import { getProfile } from '../../stores/follow-store.js';
import { removeCopies } from '../home-feed-copies.js';
import { pushFeedRemovals, pushPulledRemoval } from '../realtime/push.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { FOLLOWER_PAGE, followerPage } from '../follower-pages.js';
import { retractJob } from './retract-job.js';

/** Clock skew allowed between the pull job's clock and the poster's (a post this close to the pull is retracted in full). */
const SKEW_NS = 1_000_000_000n;

export async function retract(job: JobOf<typeof retractJob>): Promise<void> {
  const rk = BigInt(job.rk);
  if (!job.cursor && (await neverCopied(job.author, rk))) {
    await removeCopies([{ owner: job.author, rk }]);
    return void (await pushPulledRemoval(job.author, rk)); // the connected followers got it pushed
  }
  const followers = await followerPage(job, job.author, FOLLOWER_PAGE);
  const owners = job.cursor ? followers : [job.author, ...followers];
  await removeCopies(owners.map((owner) => ({ owner, rk })));
  await pushFeedRemovals(owners.map((owner) => ({ owner, author: job.author, rk })));
}

/** The author was pulled before the post was written and has not been unpulled since. */
async function neverCopied(author: string, rk: bigint): Promise<boolean> {
  const { pulled, pulledSince } = await getProfile(author, { consistent: true });
  return pulled && pulledSince !== undefined && pulledSince + SKEW_NS < ticksOfRangeKey(rk);
}

export const retractRunner: JobRunner<typeof retractJob> = { def: retractJob, run: retract };
