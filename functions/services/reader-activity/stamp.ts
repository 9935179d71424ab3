/**
 * stamp job: one page of a reader's follows (from their edges, STAMP_PAGE at a time, in series),
 * then of their followed tags (tags/write-back.ts does for push tag follows what 1 and 2 do here).
 *   1. Raise the activity bound on each follow's followers-list entry to `until`: from then on every
 *      fan-out of those followees copies to the reader again (fanout/author-fanout.ts reads the bound on the
 *      entry it reads anyway).
 *   2. Where copies stopped (`since`: the head's bound when the read asked), write back each
 *      followee's posts made since — after step 1, so a post is either copied by its fan-out
 *      (which started after the stamp) or already stored when we read the timeline here (a post's
 *      original is written before its fan-out starts). Then the re-checks a backfill does: copies of
 *      follows undone or muted meanwhile, and of posts deleted meanwhile, are taken back.
 *   3. After the last page only, raise the head's bound: it must never claim what an entry lacks.
 * Until then a read merges the followees' timelines (feed-reading.ts), so nothing is missing at any
 * point. Every write is idempotent and only ever raises a bound: a redelivered or duplicate job
 * rewrites the same copies and stamps nothing lower.
 * Cost: one write per follow per stamp (at most once per half window of reading) plus, on a
 * return, the copies the reader missed — never more than copy-everyone would have written.
 */
import { authorRoadStores } from '../../model/copy-rule.js';
import { rkOf } from '../../model/range-key.js';
import { missingSince, stampDue } from '../../model/reader-activity.js';
import { nowTicks } from '../../platform/clock.js';
import { forEachLimit } from '../../platform/pool.js';
import type { Item } from '../../platform/dynamo/query.js';
import { originalsSince, readHead, setHeadActiveUntil } from '../../stores/feed-store.js';
import { followeesPage, stampFollowerEntry } from '../../stores/follow-store.js';
import { keptCopies } from '../copy-facts.js';
import { tagFollowsPage } from '../../stores/tag-store.js';
import { removeCopies, writeCopies } from '../home-feed-copies.js';
import { enqueueJob } from '../jobs/bus.js';
import type { JobOf, JobRunner } from '../jobs/define.js';
import { settleWritten } from '../live-originals.js';
import { pushFeedItemsOf } from '../realtime/push.js';
import { homeFeedPolicy } from '../retention/retention-policy.js';
import { stampTagFollows, writeBackTagCopies } from '../tags/write-back.js';
import { restampJob, stampJob } from './stamp-job.js';
import { activeWindowTicks } from './window.js';

type StampJob = JobOf<typeof stampJob> | JobOf<typeof restampJob>;

/** Follows (or followed tags) per stamp page (one Query of the reader's edges; on a return, one Query of each timeline, 16 at a time). */
export const STAMP_PAGE = 100;
/**
 * Entry writes (follows' and push tag follows') a stamp job has in flight at once: a stamp's reader
 * waits for it; a restamp (background) yields, since a page of its 100 writes, 16 at a time, is a
 * burst beside the reads and fan-outs DynamoDB serves meanwhile.
 */
const WRITES_AT_ONCE = { stamp: 16, restamp: 2 } as const;
/** Posts written back per page when the feed keeps no count bound (FEED_MAX_ITEMS=off). */
export const REBUILD_MAX = 1000;

const optionalTicks = (t: string | undefined) => (t === undefined ? undefined : BigInt(t));

/** The feed keeps its newest N: no page writes back more than the N newest of its posts. */
const rebuildMax = () => homeFeedPolicy().maxItems ?? REBUILD_MAX;

/**
 * Write back `followees`' posts since `since` to `reader`'s feed, then take back what the re-checks
 * say is no longer wanted (follows undone or muted, posts deleted) and bring edited ones to their
 * version (live-originals.ts settleWritten, as a backfill does).
 */
async function rebuild(reader: string, followees: readonly string[], since: bigint, pulled: ReadonlySet<string>): Promise<void> {
  const n = rebuildMax();
  const lists: Item[][] = [];
  await forEachLimit([...followees.entries()], 16, async ([i, f]) => {
    lists[i] = await originalsSince(f, since, n);
  });
  const byRk = (a: Item, b: Item) => (rkOf(a.rk) < rkOf(b.rk) ? -1 : rkOf(a.rk) > rkOf(b.rk) ? 1 : 0);
  const originals = lists.flat().sort(byRk).slice(0, n);
  if (originals.length === 0) return;
  const { written, copies } = await writeCopies(originals.map((source) => ({ owner: reader, source })));
  const groups = copies.map((c) => ({ author: String(c.source.actor), rk: rkOf(c.source.rk), source: c.source, owners: [reader], written }));
  // The re-checks: deleted meanwhile, taken back; edited, rewritten; then what the copy rule no
  // longer keeps (unfollowed or muted meanwhile, and no other road brings it) is taken back.
  const { gone, kept } = await settleWritten(groups);
  const keep = await keptCopies(
    kept.map((g) => ({ reader, actor: g.author, tags: (g.source as { tags?: unknown }).tags })),
    { pulled },
  );
  await removeCopies([...gone, ...kept.filter((_, i) => !keep[i])].map((g) => ({ owner: reader, rk: g.rk })));
  await pushFeedItemsOf(kept.filter((_, i) => keep[i]).map((g) => ({ copies: [{ owner: reader, source: g.source }], seq: g.written })));
}

/**
 * A first page finds its work done by another job (a second ask from another instance): the head's
 * bound raised past where copies stopped, or — with nothing missing — no longer due.
 */
function alreadyDone(headUntil: bigint | undefined, since: bigint | undefined): boolean {
  if (since !== undefined) return headUntil === undefined || headUntil > since;
  return !stampDue(headUntil, nowTicks(), activeWindowTicks());
}

export async function stamp(job: StampJob): Promise<void> {
  const until = optionalTicks(job.until);
  const head = await readHead(job.reader);
  // Where copies stopped as the read saw it — or, if the bound has passed since (the job ran late,
  // or this is a later page), as it is now: posts after it were skipped by the fan-out.
  const since = optionalTicks('since' in job ? job.since : undefined) ?? missingSince(head.activeUntil, nowTicks());
  if (!job.cursor && !job.tags && alreadyDone(head.activeUntil, since)) return;
  if (!job.tags) {
    const page = await followeesPage(job.reader, STAMP_PAGE, job.cursor);
    await forEachLimit(page.items, WRITES_AT_ONCE[job.kind], (f) => stampFollowerEntry(f.followee, f.order, job.reader, until));
    if (since !== undefined) {
      const pulled = new Set(head.pulled); // merged at read time: never copied
      const stored = page.items.filter((f) => authorRoadStores({ active: true, muted: f.muted }, pulled.has(f.followee)));
      await rebuild(
        job.reader,
        stored.map((f) => f.followee),
        since,
        pulled,
      );
    }
    if (page.last !== undefined) return enqueueJob({ ...job, cursor: page.last });
  }
  // The followed tags, from their first page on the follows' last (most readers follow few tags: no second job).
  const tagPage = await tagFollowsPage(job.reader, STAMP_PAGE, job.tags ? job.cursor : undefined);
  await stampTagFollows(job.reader, tagPage.items, until, WRITES_AT_ONCE[job.kind]);
  if (since !== undefined) await writeBackTagCopies(job.reader, tagPage.items, since, rebuildMax());
  if (tagPage.last !== undefined) await enqueueJob({ ...job, tags: true, cursor: tagPage.last });
  else await setHeadActiveUntil(job.reader, until);
}

export const stampRunner: JobRunner<typeof stampJob> = { def: stampJob, run: stamp };
/** A restamp is a stamp with nothing missing, on the background lane; its further pages stay there. */
export const restampRunner: JobRunner<typeof restampJob> = { def: restampJob, run: stamp };
