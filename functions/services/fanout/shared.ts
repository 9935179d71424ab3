/**
 * What every fan-out job kind shares: paging over an author's followers with continuation jobs,
 * and the "is this original still live" checks that keep a DELETE from leaving orphan copies.
 *
 * Paging: a job handles ONE page of followers. It enqueues the continuation for the next page
 * BEFORE writing its own page, so pages of a big fan-out run in parallel on the worker's pollers,
 * and a failure after the send loses nothing: the message comes back and rewrites the same keys.
 */
import { isVisibleOriginal } from '../../model/timeline-item.js';
import { getOriginalsAndOwnCopies } from '../../stores/feed-store.js';
import { listPage } from '../../stores/follow-store.js';
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
  if (page.last !== undefined) await enqueueJob({ ...job, cursor: page.last } as Job);
  return page.items.filter((f) => !(opts.skipMuted && f.muted)).map((f) => f.userId);
}

/**
 * For each (author, rk): whether the original is there and visible (not marked deleted, not
 * expired), and — asked with `ownCopy` / `pulled` — whether the author's own copy exists and
 * whether the author is pulled: one read for a fan-out batch's pages.
 */
export async function liveWithOwnCopies(
  keys: readonly { author: string; rk: bigint; ownCopy: boolean; pulled?: boolean }[],
): Promise<{ live: boolean; ownCopy: boolean; pulled: boolean }[]> {
  const now = nowSeconds();
  return (await getOriginalsAndOwnCopies(keys)).map(({ original, ownCopy, pulled }) => ({ live: isVisibleOriginal(original, now), ownCopy, pulled }));
}

/** Of these (author, rk), those no longer live (deleted meanwhile): one read for a fan-out batch's re-check. */
export async function notLive<K extends { author: string; rk: bigint }>(keys: readonly K[]): Promise<K[]> {
  if (keys.length === 0) return [];
  const checks = await liveWithOwnCopies(keys.map((k) => ({ author: k.author, rk: k.rk, ownCopy: false })));
  return keys.filter((_, i) => !checks[i]!.live);
}

/** Of the given originals of `author`, the rks that are no longer live (deleted meanwhile). */
export async function noLongerLive(author: string, rks: readonly bigint[]): Promise<bigint[]> {
  return (await notLive(rks.map((rk) => ({ author, rk })))).map((k) => k.rk);
}
