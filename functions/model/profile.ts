/**
 * A user's profile item, `user#<id>` / `profile` in the graph table: follow counters (kept exact
 * by the follow/unfollow transactions) and the hybrid fan-out flag `pulled`.
 */
export const profileKey = (userId: string) => ({ pk: `user#${userId}`, sk: 'profile' });

export interface Profile {
  readonly followers: number;
  readonly following: number;
  /** Posts are merged at read time instead of copied (≥ FANOUT_PULL_THRESHOLD followers). */
  readonly pulled: boolean;
}

export function parseProfile(item: Record<string, unknown> | undefined): Profile {
  return {
    followers: Number(String(item?.followers ?? 0)),
    following: Number(String(item?.following ?? 0)),
    pulled: item?.pulled === true,
  };
}
