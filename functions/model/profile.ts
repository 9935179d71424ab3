/**
 * A user's profile, in the graph table's `user#<id>` partition:
 *   `profile`          the `following` counter (one writer at a time: the user's own follows),
 *                      the hybrid fan-out flag `pulled`, `graphVersion` (raised by every follow and
 *                      unfollow of this user, so a bulk import can tell whether one ran under it),
 *                      and a base `followers` count (seeded or written before the counters split)
 *   `profile#f<nn>`    FOLLOWER_SHARDS split counters of `followers`, each with a copy of `pulled`
 *
 * Why split: every follow of a user changes their follower count, and DynamoDB transactions on one
 * item conflict (TransactionConflict) — a user followed by many at once would serialize every
 * follow on one item. A follow adds 1 to one shard, chosen from the follower's id (and the attempt,
 * so a retry after a conflict moves to another shard); an unfollow subtracts 1 from the follower's
 * shard. A shard may go negative; the sum is exact. `pulled` is copied onto every shard (all set in
 * one transaction) so a follow's transaction can check the flag on its own shard instead of on the
 * profile item every follow would then share.
 *
 * Reading: one Query of the partition (profile + at most FOLLOWER_SHARDS shards, ~60 bytes each for
 * a typical id): 1 read unit strongly consistent, the cost of the single GetItem it replaces.
 */
import { shortHash } from './short-hash.js';

/** Follower-count shards per user: about twice the follows one user can take in flight at once. */
export const FOLLOWER_SHARDS = 32;

export const profileKey = (userId: string) => ({ pk: `user#${userId}`, sk: 'profile' });
/** The sort-key prefix of the profile and its shards (one Query reads them all). */
export const PROFILE_PREFIX = 'profile';

const shardSk = (shard: number) => `${PROFILE_PREFIX}#f${String(shard).padStart(2, '0')}`;

/** One follower-count shard of `userId` (0 ≤ shard < FOLLOWER_SHARDS). */
export const followerShardKey = (userId: string, shard: number) => ({ pk: profileKey(userId).pk, sk: shardSk(shard) });

/** Every shard key of `userId`, in order (setting `pulled` writes them all). */
export const allFollowerShardKeys = (userId: string) => Array.from({ length: FOLLOWER_SHARDS }, (_, s) => followerShardKey(userId, s));

/**
 * The shard a follow or unfollow by `follower` counts on: deterministic, so a test can predict it;
 * `attempt` (1, 2, …) moves a follow that lost a race to the next shard instead of the same one.
 * `salt` spreads different writers' shards (a bulk import uses its batch id).
 */
export function followerShardOf(follower: string, attempt = 1, salt = ''): number {
  const h = shortHash(`${salt}\n${follower}`);
  const n = (h.charCodeAt(0) * 64 + h.charCodeAt(1)) % FOLLOWER_SHARDS;
  return (n + attempt - 1) % FOLLOWER_SHARDS;
}

/**
 * Whether `userId` is pulled as shard `shard` says, from items read by key (others ignored): the
 * flag is copied onto every shard in one transaction, so one shard tells — and it is the copy a
 * follow's transaction checks. A shard never written: not pulled (setPulled writes every shard).
 */
export function pulledOnShard(items: readonly Record<string, unknown>[], userId: string, shard: number): boolean {
  const key = followerShardKey(userId, shard);
  return items.some((i) => i.pk === key.pk && i.sk === key.sk && i.pulled === true);
}

export interface Profile {
  readonly followers: number;
  readonly following: number;
  /** Posts are merged at read time instead of copied (≥ FANOUT_PULL_THRESHOLD followers). */
  readonly pulled: boolean;
  /** Ticks from which every fan-out saw `pulled` (set after the flag committed; gone once unpulled). */
  readonly pulledSince?: bigint;
  /** Raised by each follow and unfollow the user makes (0 when never). */
  readonly graphVersion: number;
}

const num = (v: unknown) => Number(String(v ?? 0));
const isList = (v: readonly Record<string, unknown>[] | Record<string, unknown>): v is readonly Record<string, unknown>[] => Array.isArray(v);

/** The profile from its partition's items (the profile item and its shards, in any order; none = a new user). */
export function parseProfile(items: readonly Record<string, unknown>[] | Record<string, unknown> | undefined): Profile {
  // Not Array.isArray: on a readonly array it narrows to any[].
  const list: readonly Record<string, unknown>[] = items === undefined ? [] : isList(items) ? items : [items];
  const main = list.find((i) => i.sk === undefined || i.sk === profileKey('').sk);
  return {
    followers: list.reduce((sum, i) => sum + num(i.followers), 0),
    following: num(main?.following),
    pulled: main?.pulled === true,
    ...(main?.pulled === true && main.pulledSince !== undefined ? { pulledSince: BigInt(String(main.pulledSince)) } : {}),
    graphVersion: num(main?.graphVersion),
  };
}
