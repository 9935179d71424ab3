/**
 * fanout job: copy a new post into one page of its author's followers' home feeds (and, on the
 * first page, the author's own if POST did not get to write it: a read costs a fifth of a write).
 * A lane batch's pages run together (fanoutBatch), paying once per batch for what every page asks:
 * the first check of the originals (with the own copies), the re-check after the writes and the
 * read of who is connected — one call each instead of one per page.
 *
 * Edit-safety: the copies are of the original as that check read it (not the job's stream image,
 * which is the post as first written), and the re-check after the writes rewrites a page whose
 * post was edited meanwhile (live-originals.ts settleWritten), so no copy stays behind an edit.
 *
 * Delete-safety: a DELETE can mark the original at any moment. Checked before the page (a deleted
 * post stops its fan-out) AND after the writes: the retract job may already have passed these
 * followers, so copies written after the mark are ours to take back. Strongly consistent reads
 * make the two orders exhaustive: either our writes finished before the mark (the retract, which
 * starts after the mark, deletes them) or our re-check sees the mark. In a batch every page's
 * writes finish before the one re-check, so each page keeps that order.
 */
import { listPage } from '../../stores/follow-store.js';
import { logger } from '../../platform/logger.js';
import { recordFanoutLag } from '../../platform/metrics.js';
import type { CopySource } from '../../model/feed-copy.js';
import type { Item } from '../../platform/dynamo/query.js';
import { ticksOfRangeKey } from '../../model/range-key.js';
import { authorFanoutCopies } from '../../model/copy-rule.js';
import { copyCutoffOf } from '../../model/reader-activity.js';
import { type CopyTarget, removeCopies, writeCopies } from '../home-feed-copies.js';
import { pushFeedItemsOf, pushPulledPost } from '../realtime/push.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { fanoutPageSize, followerPage } from '../follower-pages.js';
import { liveWithOwnCopies, settleWritten } from '../live-originals.js';
import { activeWindowTicks } from '../reader-activity/window.js';
import { fanoutJob } from './fanout-job.js';

type FanoutJob = JobOf<typeof fanoutJob>;

/** A page as written, for the batch's re-check and push. */
interface Written {
  readonly author: string;
  readonly rk: bigint;
  readonly source: CopySource;
  readonly owners: readonly string[];
  readonly pulled: boolean;
  readonly written: bigint;
  readonly copies: readonly CopyTarget[];
}

/**
 * A redelivered page whose post is gone may have written before the DELETE's retract passed its
 * followers and died before its re-check (the re-check waits for the batch's slowest page): it takes
 * back what it may have written. Deleting a copy that is not there is harmless; a first delivery
 * never wrote, so it pays nothing.
 */
async function takeBack(job: FanoutJob, rk: bigint): Promise<void> {
  const page = await listPage('followers', job.author, fanoutPageSize(job), job.cursor);
  await removeCopies([...(job.cursor ? [] : [job.author]), ...page.items.map((f) => f.userId)].map((owner) => ({ owner, rk })));
}

/** One page, from the batch's first check to its writes; undefined when the post is gone. */
async function writePage(
  job: FanoutJob,
  rk: bigint,
  check: Promise<{ live: boolean; ownCopy: boolean; pulled: boolean; original: Item | undefined }>,
  redelivered: boolean,
): Promise<Written | undefined> {
  const { live, ownCopy, pulled, original } = await check; // first: the check's rejection is this page's to report
  if (!live) {
    if (redelivered) await takeBack(job, rk);
    return undefined;
  }
  const source: CopySource = original!; // its latest version: an edit may have come before this page
  // Only followers reading within the window as of the post (a late fan-out still copies to whoever was then).
  const activeAt = copyCutoffOf(rk, activeWindowTicks() !== undefined);
  const followers = !authorFanoutCopies(pulled) ? [] : await followerPage(job, job.author, fanoutPageSize(job), { copiedOnly: true, activeAt });
  if (pulled) logger.debug('author is pulled: no fan-out', { author: job.author, rk: job.rk });
  const owners = ownCopy ? followers : [job.author, ...followers];
  const { written, copies } = await writeCopies(owners.map((owner) => ({ owner, source })));
  return { author: job.author, rk, source, owners, pulled, written, copies };
}

/**
 * After every page wrote: the re-check (one read), copies of posts deleted meanwhile taken back,
 * then realtime for the rest — after the re-check, so a copy about to be taken back is not
 * announced: the connected among the pages' followers (one read of the connected set), and a
 * pulled author's connected followers, found from the connected side.
 */
async function settle(pages: readonly Written[]): Promise<void> {
  const { gone, kept } = await settleWritten(pages);
  await Promise.all(gone.map((p) => removeCopies(p.owners.map((owner) => ({ owner, rk: p.rk })))));
  await Promise.all([
    // A page rewritten at a newer version announces that one (its copies' owners, its new source).
    pushFeedItemsOf(kept.filter((p) => !p.pulled).map((p) => ({ copies: p.copies.map((c) => ({ owner: c.owner, source: p.source })), seq: p.written }))),
    ...kept.filter((p) => p.pulled).map((p) => pushPulledPost(p.author, p.source, p.written)),
  ]);
  for (const p of kept) recordFanoutLag(Date.now() - Number(ticksOfRangeKey(p.rk) / 1_000_000n));
}

/**
 * A lane batch's fanout jobs (`redelivered[i]`: job i's message came before); `done[i]` settles when
 * job i is done (its page written, re-checked and announced).
 */
export function fanoutBatch(jobs: readonly FanoutJob[], redelivered: readonly boolean[] = []): Promise<void>[] {
  const rks = jobs.map((job) => BigInt(job.rk));
  // Continuation pages need no own-copy check: the first page saw to it. Whether the author is
  // pulled is decided once, on the first page (a pulled author's posts are merged at read time), in
  // the same read: a post's fan-out starts after the post was written, so a pull marked before it
  // (markPulledSince) is seen.
  const checks = liveWithOwnCopies(jobs.map((job, i) => ({ author: job.author, rk: rks[i]!, ownCopy: !job.cursor, pulled: !job.cursor })));
  const pages = jobs.map((job, i) =>
    writePage(
      job,
      rks[i]!,
      checks.then((c) => c[i]!),
      redelivered[i] === true,
    ),
  );
  const written = (outs: PromiseSettledResult<Written | undefined>[]) => outs.flatMap((o) => (o.status === 'fulfilled' && o.value ? [o.value] : []));
  const settled = Promise.allSettled(pages).then((outs) => settle(written(outs)));
  return pages.map(async (page) => {
    if ((await page) !== undefined) await settled;
  });
}

export async function fanout(job: FanoutJob): Promise<void> {
  await fanoutBatch([job])[0];
}

/** A lane batch's fanout pages run together (fanoutBatch). */
export const fanoutRunner: JobRunner<typeof fanoutJob> = { def: fanoutJob, run: fanout, runBatch: fanoutBatch };
