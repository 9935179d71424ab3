/**
 * "Is this original still live, and still at the version copied": the checks that keep a DELETE
 * from leaving orphan copies and an edit from leaving stale ones. A job that writes copies (fanout,
 * backfill, unpull) copies the original as it read it, then re-checks after its writes
 * (settleWritten): copies of posts deleted meanwhile are the caller's to take back (the retract
 * may already have passed that feed); posts edited meanwhile are written again at their new
 * version (the edit's job may already have passed that feed, and an edit only updates copies that
 * exist). Strongly consistent reads make the orders exhaustive: an edit committed after a re-check
 * that saw our version started its copy updates after our writes, so it finds them.
 */
import type { CopySource } from '../model/feed-copy.js';
import { isVisibleOriginal, versionOf } from '../model/timeline-item.js';
import type { Item } from '../platform/dynamo/query.js';
import { getOriginalsAndOwnCopies } from '../stores/feed-store.js';
import { writeCopies } from './home-feed-copies.js';

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Re-checks (each after a rewrite) before a writer gives up and lets its job come back. */
const MAX_REWRITES = 4;

/**
 * For each (author, rk): whether the original is there and visible (not marked deleted, not
 * expired) and the original itself, and — asked with `ownCopy` / `pulled` — whether the author's
 * own copy exists and whether the author is pulled: one read for a fan-out batch's pages.
 */
export async function liveWithOwnCopies(
  keys: readonly { author: string; rk: bigint; ownCopy: boolean; pulled?: boolean }[],
): Promise<{ live: boolean; ownCopy: boolean; pulled: boolean; original: Item | undefined }[]> {
  const now = nowSeconds();
  return (await getOriginalsAndOwnCopies(keys)).map(({ original, ownCopy, pulled }) => ({ live: isVisibleOriginal(original, now), ownCopy, pulled, original }));
}

/** Copies of one original just written to some owners. */
export interface WrittenGroup {
  readonly author: string;
  readonly rk: bigint;
  /** What was copied: the original as read (its `version` says which). */
  readonly source: CopySource;
  readonly owners: readonly string[];
  /** When they were written (server ticks: the realtime `seq`). */
  readonly written: bigint;
}

/**
 * After a writer's copies: one read per round of the originals. Returns the groups whose post was
 * deleted meanwhile (`gone`: the caller takes their copies back) and the rest (`kept`), those
 * edited meanwhile rewritten at the version now stored (with their new `source` and `written`).
 * A rewrite is re-checked like the first write; an original edited on every round for
 * MAX_REWRITES rounds throws, so the job comes back.
 */
export async function settleWritten<G extends WrittenGroup>(groups: readonly G[]): Promise<{ gone: G[]; kept: G[] }> {
  const gone: G[] = [];
  const kept: G[] = [];
  let pending = [...groups];
  for (let round = 0; pending.length > 0; round++) {
    if (round > MAX_REWRITES) throw new Error(`originals edited during ${MAX_REWRITES} rewrites of their copies`);
    const checks = await liveWithOwnCopies(pending.map((g) => ({ author: g.author, rk: g.rk, ownCopy: false })));
    const edited: { group: G; original: Item }[] = [];
    pending.forEach((g, i) => {
      const { live, original } = checks[i]!;
      if (!live) gone.push(g);
      else if (versionOf(original!) > versionOf(g.source)) edited.push({ group: g, original: original! });
      else kept.push(g);
    });
    pending = [];
    for (const { group, original } of edited) {
      const { written } = await writeCopies(group.owners.map((owner) => ({ owner, source: original })));
      pending.push({ ...group, source: original, written });
    }
  }
  return { gone, kept };
}
