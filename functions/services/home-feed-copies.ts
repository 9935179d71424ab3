/**
 * Writes and deletes home-feed copies for posting (the author's own copy), fan-out, follow
 * backfill, unpull, unfollow cleanup and retract, so that each applies the home-feed TTL and the
 * trim attempts the same way. Not the only writer: edits update copies in place (feed-store
 * updateCopy) and tags/ writes tag followers' copies.
 * A copy costs exactly its own write: no counter, no lookup. A few writes start a trim
 * (retention/trim.ts); a failed trim only delays storage reclamation and is logged.
 */
import type { CopySource } from '../model/feed-copy.js';
import { rkOf, ticksOfRangeKey } from '../model/range-key.js';
import { logger } from '../platform/logger.js';
import { forEachLimit } from '../platform/pool.js';
import type { BatchWriteOptions } from '../platform/dynamo/batch-write.js';
import { deleteCopies, putCopies } from '../stores/feed-store.js';
import { ageBound, expiresAtFor } from './retention/bounds.js';
import { homeFeedPolicy } from './retention/retention-policy.js';
import { startsTrim, trimHomeFeed } from './retention/trim.js';
import { nowTicks } from '../platform/clock.js';

/** Trim attempts in flight per call. */
const TRIM_CONCURRENCY = 4;

export interface CopyTarget {
  readonly owner: string;
  /** The original (timeline item as read, or its stream image unmarshalled). */
  readonly source: CopySource;
}

/**
 * Write copies (idempotent: same keys on every retry). Copies already past the home-feed age are
 * skipped: a read would hide them and TTL would delete them. Each copy records when it was written
 * (the realtime catch-up's `seq`); returns that instant and the copies written.
 */
export async function writeCopies(targets: readonly CopyTarget[], opts?: BatchWriteOptions): Promise<{ written: bigint; copies: CopyTarget[] }> {
  const p = homeFeedPolicy();
  const written = nowTicks();
  const alive = ageBound(written, p.ttlMs);
  const live = targets.filter((t) => alive === undefined || rkOf(t.source.rk) < alive);
  // One group per original (a fan-out page is one group; a backfill, one group per post).
  const groups = new Map<CopySource, string[]>();
  for (const t of live) groups.get(t.source)?.push(t.owner) ?? groups.set(t.source, [t.owner]);
  await putCopies(
    [...groups].map(([source, owners]) => ({ source, owners, written, expiresAt: expiresAtFor(ticksOfRangeKey(rkOf(source.rk)), p.ttlMs) })),
    opts,
  );
  // Per owner: the oldest copy written to it now, and whether any of its copies drew a trim.
  const oldest = new Map<string, bigint>();
  const drawn = new Set<string>();
  for (const t of live) {
    const rk = rkOf(t.source.rk);
    const o = oldest.get(t.owner);
    if (o === undefined || rk > o) oldest.set(t.owner, rk);
    if (startsTrim(t.owner, rk, p)) drawn.add(t.owner);
  }
  const trims = [...drawn].map((owner): [string, bigint] => [owner, oldest.get(owner)!]);
  await forEachLimit(trims, TRIM_CONCURRENCY, async ([owner, oldestWritten]) => {
    await trimHomeFeed(owner, p, oldestWritten).catch((error: unknown) => logger.warn('home-feed trim failed', { error: error as Error, owner }));
  });
  return { written, copies: live };
}

/** Delete the copies at (owner, rk). */
export const removeCopies = (keys: readonly { owner: string; rk: bigint }[], opts?: BatchWriteOptions) => deleteCopies(keys, opts);
