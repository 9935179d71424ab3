/**
 * The one place that writes and deletes fan-out copies in followers' feeds — fan-out, follow
 * backfill, unpull backfill, unfollow cleanup and delete-everywhere all come through here, so
 * retention (issue 6) hooks its per-feed accounting/trim in one place.
 *
 * A copy is the original's item with pk = the feed owner and without `author` (so it stays out of
 * the sparse `byAuthor` index). It keeps the original's rk, so rewriting it is idempotent and
 * deleting it needs no lookup; it keeps the original's `expiresAt`, so TTL applies to copies too.
 */
import { tables } from '../../../lib/defs/tables.js';
import { requireEnv } from '../env.js';
import { feedItemKey } from '../keys.js';
import { logger } from '../logger.js';
import { policyFromEnv } from '../retention/policy.js';
import { countAndTrim } from '../retention/trim.js';
import { type BatchWriteOptions, batchWriteAll } from './batch-write.js';

const feedTable = requireEnv(tables.feed.envVar);
const retention = policyFromEnv();
/** Counter updates in flight per call (each is one small UpdateItem). */
const RETENTION_CONCURRENCY = 16;

/** A feed item as read with `wrapNumbers` (rk is a NumberValue/bigint) or built in code. */
export type FeedItem = Record<string, unknown> & { rk: unknown };

export interface FeedCopy {
  readonly owner: string;
  readonly item: FeedItem;
}

/** The copy of `original` that belongs in `owner`'s feed. */
export function copyOf(original: FeedItem, owner: string): Record<string, unknown> {
  const { author: _author, pk: _pk, ...rest } = original;
  return { ...rest, pk: owner };
}

/**
 * Write copies (idempotent: same keys on every retry), then apply retention to each feed
 * written: one counter update per feed, and a trim when that feed passes N + margin.
 */
export async function writeFeedCopies(copies: readonly FeedCopy[], opts?: BatchWriteOptions): Promise<void> {
  await batchWriteAll(
    feedTable,
    copies.map((c) => ({ PutRequest: { Item: copyOf(c.item, c.owner) } })),
    opts,
  );
  await applyRetention(copies);
}

/** Per feed: how many copies landed and the newest of them (smallest rk). */
async function applyRetention(copies: readonly FeedCopy[]): Promise<void> {
  if (retention.maxItems === undefined && retention.maxSpanMs === undefined) return;
  const perOwner = new Map<string, { added: number; newest: bigint }>();
  for (const c of copies) {
    const rk = BigInt(String(c.item.rk));
    const entry = perOwner.get(c.owner);
    if (!entry) perOwner.set(c.owner, { added: 1, newest: rk });
    else {
      entry.added += 1;
      if (rk < entry.newest) entry.newest = rk;
    }
  }
  const owners = [...perOwner.entries()];
  let next = 0;
  const worker = async () => {
    while (next < owners.length) {
      const [owner, { added, newest }] = owners[next++]!;
      // The copies are written; a failed counter update only delays a trim (the next trim's
      // recount corrects the counter), while failing the job would rewrite and re-count them all.
      await countAndTrim(owner, added, retention, newest).catch((error: unknown) =>
        logger.warn('feed counter update failed', { error: error as Error, owner }),
      );
    }
  };
  await Promise.all(Array.from({ length: RETENTION_CONCURRENCY }, worker));
}

/** Convenience: one original to many owners. */
export const fanOutCopies = (owners: readonly string[], item: FeedItem, opts?: BatchWriteOptions) =>
  writeFeedCopies(owners.map((owner) => ({ owner, item })), opts);

/** Delete the copies at (owner, rk). Deleting an absent key is harmless (and still 1 WCU). */
export async function deleteFeedCopies(keys: readonly { owner: string; rk: bigint }[], opts?: BatchWriteOptions): Promise<void> {
  await batchWriteAll(
    feedTable,
    keys.map((k) => ({ DeleteRequest: { Key: feedItemKey(k.owner, k.rk) } })),
    opts,
  );
}
