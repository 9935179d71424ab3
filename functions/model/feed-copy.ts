/**
 * A home-feed copy: an activity as shown in `owner`'s home feed, partition `f#<owner>` of the feed
 * table. Home feeds hold copies only — the owner's own posts included — so retention of a home
 * feed (count, span, age) can only ever remove copies, never what a user owns.
 *
 * A copy has its original's fields and rk (so rewriting it is idempotent and a delete finds it
 * without a lookup) and the home-feed TTL (`expiresAt` from FEED_TTL, set by the writer).
 */
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { authorOfTimelinePk } from './timeline-item.js';

const PREFIX = feedPartitionPrefix.homeFeed;

export const homeFeedPartition = (owner: string) => `${PREFIX}${owner}`;
export const homeFeedKey = (owner: string, rk: bigint) => ({ pk: homeFeedPartition(owner), rk });

/**
 * The copy's write time (server ticks): what the realtime catch-up asks for (copies written since
 * the last push a client saw), since a late copy's rk can sit below keys the client already holds.
 * The same instant is a push's `seq` (services/realtime/): a client passes its last `seq` back as
 * the catch-up's `after`, so `written` (here) and `seq` (on the wire) are one value.
 */
export const WRITTEN_ATTRIBUTE = 'w';

/** The original's fields a copy carries (everything but its partition and TTL). */
export type CopySource = { readonly [field: string]: unknown };

/** The copy of a timeline item (as read, or as a stream image unmarshalled) for `owner`. */
export function copyOf(original: CopySource, owner: string, expiresAt: number | undefined, writtenTicks?: bigint): Record<string, unknown> {
  const { pk: _pk, expiresAt: _e, deletedAt: _d, [WRITTEN_ATTRIBUTE]: _w, ...fields } = original;
  return {
    ...fields,
    pk: homeFeedPartition(owner),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(writtenTicks === undefined ? {} : { [WRITTEN_ATTRIBUTE]: writtenTicks }),
  };
}

/** Whether a stored item is a timeline original (as opposed to a copy or a head item). */
export const isOriginal = (item: Record<string, unknown>): boolean => authorOfTimelinePk(item.pk as string) !== undefined;
