/**
 * Paging over an author's followers with continuation jobs, for the jobs that visit every follower
 * (fanout, retract, pull, unpull). A job handles ONE page of followers. It enqueues the
 * continuation for the next page BEFORE writing its own page, so pages of a big fan-out run in
 * parallel on the worker's pollers, and a failure after the send loses nothing: the message comes
 * back and rewrites the same keys.
 */
import { authorPageCopies } from '../model/copy-rule.js';
import { listPage } from '../stores/follow-store.js';
import { enqueueJob } from './jobs/bus.js';
import type { Job } from './jobs/jobs.js';

type PagedJob = Extract<Job, { cursor?: string }>;

/** Followers per fan-out/retract/pull page: 20 BatchWriteItem calls. */
export const FOLLOWER_PAGE = 500;
/**
 * Followers on a post's first fan-out page (the fanout lane): small, so the first page of every post
 * — the whole fan-out of most authors — is quick, and a large author's 500-follower pages run on the
 * fanoutTail lane behind it.
 */
export const FIRST_FANOUT_PAGE = 100;

/** The size of a fan-out page: the first, or a further one (a job with a cursor). */
export const fanoutPageSize = (job: { cursor?: string }): number => (job.cursor ? FOLLOWER_PAGE : FIRST_FANOUT_PAGE);
/** Followers per unpull page: each gets up to BACKFILL_LIMIT copies. */
export const UNPULL_PAGE = 50;

/** Which followers of a page a job wants; what the copy rule asks is on the entries read anyway. */
export interface FollowerFilter {
  /** Only followers the author's road copies to (model/copy-rule.ts authorPageCopies: not muted, bound reaching `activeAt`). */
  readonly copiedOnly?: boolean;
  /** The post's instant (ticks) for the activity bound (model/reader-activity.ts copyCutoffOf); undefined: any bound. */
  readonly activeAt?: bigint;
}

/** One page of `author`'s followers; enqueues the job for the next page first, if there is one. */
export async function followerPage(job: PagedJob, author: string, size: number, opts: FollowerFilter = {}): Promise<string[]> {
  // A page that writes copies reads strongly consistent. A stale read could miss a follow made just
  // before the post (its backfill ran before the post was written) or, with the activity window, see
  // a bound from before a returning reader's stamp raised it (its write-back ran before the post):
  // either way the post would be lost. The model test serves both stale reads (home-feed.test.ts).
  const page = await listPage('followers', author, size, job.cursor, { consistent: opts.copiedOnly === true });
  if (page.last !== undefined) await enqueueJob({ ...job, cursor: page.last });
  return page.items.filter((f) => !opts.copiedOnly || authorPageCopies(f, opts.activeAt)).map((f) => f.userId);
}
