/**
 * fanout job: copy a new post into one page of its author's followers' home feeds (and, on the
 * first page, the author's own if POST did not get to write it: a read costs a fifth of a write,
 * and it is read in one BatchGet with the original for the first check).
 *
 * Delete-safety: a DELETE can mark the original at any moment. Checked before the page (a deleted
 * post stops its fan-out) AND after the writes: the retract job may already have passed these
 * followers, so copies written after the mark are ours to take back. Strongly consistent reads
 * make the two orders exhaustive: either our writes finished before the mark (the retract, which
 * starts after the mark, deletes them) or our re-check sees the mark.
 */
import { getProfile } from '../../stores/graph-store.js';
import { itemOfImage, type StreamImage } from '../../platform/dynamo/images.js';
import { logger } from '../../platform/logger.js';
import { recordFanoutLag } from '../../platform/metrics.js';
import { ticksOfRangeKey } from '../../model/range-key.js';
import { removeCopies, writeCopies } from '../home-feed-copies.js';
import { pushFeedItems, pushPulledPost } from '../realtime/push.js';
import type { Job } from '../jobs/jobs.js';
import { FOLLOWER_PAGE, followerPage, isLive, isLiveWithOwnCopy } from './shared.js';

export async function fanout(job: Extract<Job, { kind: 'fanout' }>): Promise<void> {
  const rk = BigInt(job.rk);
  const source = { ...itemOfImage(job.image as StreamImage), rk };
  const first = !job.cursor;
  const { live, ownCopy } = first ? await isLiveWithOwnCopy(job.author, rk) : { live: await isLive(job.author, rk), ownCopy: true };
  if (!live) return;
  // Decided once, on the first page: a pulled author's posts are merged at read time instead.
  const pulled = first && (await getProfile(job.author, { consistent: true })).pulled;
  const followers = pulled ? [] : await followerPage(job, job.author, FOLLOWER_PAGE, { skipMuted: true });
  if (pulled) logger.debug('author is pulled: no fan-out', { author: job.author, rk: job.rk });
  const owners = ownCopy ? followers : [job.author, ...followers];
  const { written, copies } = await writeCopies(owners.map((owner) => ({ owner, source })));
  if (!(await isLive(job.author, rk))) return removeCopies(owners.map((owner) => ({ owner, rk })));
  // Realtime, after the re-check (a copy about to be taken back is not announced): the connected
  // among this page's followers; a pulled author's connected followers, found from the connected side.
  await (pulled ? pushPulledPost(job.author, source, written) : pushFeedItems(copies, written));
  recordFanoutLag(Date.now() - Number(ticksOfRangeKey(rk) / 1_000_000n));
}
