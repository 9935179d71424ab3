/**
 * Paging over a tag's push followers with continuation jobs, as follower-pages.ts does for an
 * author's: a job handles ONE page and enqueues the next page's job BEFORE writing its own, so a
 * failure after the send loses nothing (the message comes back and rewrites the same keys).
 */
import { tagPageCopies } from '../../model/copy-rule.js';
import { tagFollowersPage } from '../../stores/tag-store.js';
import { enqueueJob } from '../jobs/bus.js';
import type { JobOf } from '../jobs/define.js';
import { FOLLOWER_PAGE } from '../follower-pages.js';
import type { tagEditJob, tagFanoutJob, tagRetractJob } from './tag-jobs.js';

type TagPagedJob = JobOf<typeof tagFanoutJob> | JobOf<typeof tagRetractJob> | JobOf<typeof tagEditJob>;

/**
 * One page of the tag's push followers; enqueues the job for the next page first, if there is one.
 * `copiesOf`: only the followers a tag fan-out of `author`'s post copies to (model/copy-rule.ts
 * tagPageCopies: not the author, none `shielded` from them, a bound reaching `activeAt`, read on the
 * entry); absent, every follower of the page but the author.
 */
export async function tagFollowerPage(
  job: TagPagedJob,
  copiesOf?: { readonly shielded: Promise<ReadonlySet<string>>; readonly activeAt?: bigint },
): Promise<string[]> {
  // A page that writes copies reads strongly consistent, as an author's follower page does
  // (../follower-pages.ts: a tag follow made just before the post, a bound just raised); the
  // author's controls are read beside it.
  const [page, shielded] = await Promise.all([
    tagFollowersPage(job.tag, FOLLOWER_PAGE, job.cursor, { consistent: copiesOf !== undefined }),
    copiesOf?.shielded,
  ]);
  if (page.last !== undefined) await enqueueJob({ ...job, cursor: page.last });
  const copied = (f: { userId: string; activeUntil?: bigint }) =>
    copiesOf ? tagPageCopies(f.userId, job.author, shielded!.has(f.userId), f.activeUntil, copiesOf.activeAt) : f.userId !== job.author;
  return page.items.filter(copied).map((f) => f.userId);
}

/** The page a job names, every follower of it, without enqueueing anything (a redelivered page taking back its writes). */
export async function tagFollowersAt(job: TagPagedJob): Promise<string[]> {
  return (await tagFollowersPage(job.tag, FOLLOWER_PAGE, job.cursor)).items.map((f) => f.userId);
}
