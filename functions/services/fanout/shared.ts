/**
 * What every fan-out job kind shares: paging over an author's followers with continuation jobs,
 * and the "is this original still live" checks that keep a DELETE from leaving orphan copies.
 *
 * Paging: a job handles ONE page of followers. It enqueues the continuation for the next page
 * BEFORE writing its own page, so pages of a big fan-out run in parallel on the worker's pollers,
 * and a failure after the send loses nothing: the message comes back and rewrites the same keys.
 */
import { isVisibleOriginal } from '../../model/timeline-item.js';
import { getOriginal, getOriginalAndOwnCopy, getOriginals } from '../../stores/feed-store.js';
import { listPage } from '../../stores/graph-store.js';
import { enqueueJob } from '../jobs/bus.js';
import type { Job } from '../jobs/jobs.js';

type PagedJob = Extract<Job, { cursor?: string }>;

/** Followers per fan-out/retract/pull page: 20 BatchWriteItem calls. */
export const FOLLOWER_PAGE = 500;
/** Followers per unpull page: each gets up to BACKFILL_LIMIT copies. */
export const UNPULL_PAGE = 50;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * One page of `author`'s followers; enqueues the job for the next page first, if there is one.
 * `skipMuted`: leave out followers who muted the author (the flag is on the entry read anyway).
 */
export async function followerPage(job: PagedJob, author: string, size: number, opts: { skipMuted?: boolean } = {}): Promise<string[]> {
  const page = await listPage('followers', author, size, job.cursor);
  if (page.lastSortKey) await enqueueJob({ ...job, cursor: page.lastSortKey } as Job);
  return opts.skipMuted ? page.userIds.filter((u) => !page.muted.has(u)) : page.userIds;
}

/** The original is there, visible (not marked deleted, not expired). */
export async function isLive(author: string, rk: bigint): Promise<boolean> {
  return isVisibleOriginal(await getOriginal(author, rk), nowSeconds());
}

/** isLive, and whether the author's own copy of the original exists, in one read. */
export async function isLiveWithOwnCopy(author: string, rk: bigint): Promise<{ live: boolean; ownCopy: boolean }> {
  const { original, ownCopy } = await getOriginalAndOwnCopy(author, rk);
  return { live: isVisibleOriginal(original, nowSeconds()), ownCopy };
}

/** Of the given originals of `author`, the rks that are no longer live (deleted meanwhile). */
export async function noLongerLive(author: string, rks: readonly bigint[]): Promise<bigint[]> {
  if (rks.length === 0) return [];
  const live = new Set((await getOriginals(rks.map((rk) => ({ author, rk })))).filter((i) => isVisibleOriginal(i, nowSeconds())).map((i) => String(i.rk)));
  return rks.filter((rk) => !live.has(String(rk)));
}
