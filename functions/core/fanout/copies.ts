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
import { type BatchWriteOptions, batchWriteAll } from './batch-write.js';

const feedTable = requireEnv(tables.feed.envVar);

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

/** Write copies (idempotent: same keys on every retry). */
export async function writeFeedCopies(copies: readonly FeedCopy[], opts?: BatchWriteOptions): Promise<void> {
  // Retention hook (issue 6): per-owner counting/trim goes here, once per owner per call.
  await batchWriteAll(
    feedTable,
    copies.map((c) => ({ PutRequest: { Item: copyOf(c.item, c.owner) } })),
    opts,
  );
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
