/**
 * The v2 → v3 plans of single graph items (functions/services/migrations/v3/graph-items.ts): what
 * each older item needs, nothing for items of other kinds or already brought forward.
 */
import { describe, expect, it } from 'vitest';
import { erasureKey, erasureShardKey } from '../../functions/model/erasure.js';
import { allFollowerShardKeys, FOLLOWER_SHARDS, profileKey } from '../../functions/model/profile.js';
import { controlCheckKey, controlListKey, erasedListKey, mirrorKey } from '../../functions/model/user-controls.js';
import { planControlCheck, planErasureCopies, planPulledShards } from '../../functions/services/migrations/v3/graph-items.js';

const now = { nowTicks: 1_795_750_000_000_000_000n };

describe('v2 → v3 graph item plans', () => {
  it("gives a mute's or block's list entry its check entry, only while the list entry exists and none is there", () => {
    for (const kind of ['mute', 'block'] as const) {
      const list = { ...controlListKey(kind, 'alice', 'bob'), userId: 'bob' };
      expect(planControlCheck(list)).toEqual([
        {
          transaction: [
            { check: controlListKey(kind, 'alice', 'bob'), condition: { expression: 'attribute_exists(pk)' } },
            { put: controlCheckKey(kind, 'alice', 'bob'), condition: { expression: 'attribute_not_exists(pk)' } },
          ],
        },
      ]);
    }
  });

  it('plans nothing for mirrors, check entries, erased entries or other partitions', () => {
    expect(planControlCheck({ ...mirrorKey('mute', 'alice', 'bob'), userId: 'alice' })).toEqual([]);
    expect(planControlCheck(controlCheckKey('mute', 'alice', 'bob'))).toEqual([]);
    expect(planControlCheck({ ...erasedListKey('block', 'alice', 'bob'), erased: true })).toEqual([]);
    expect(planControlCheck({ pk: 'user#mute#x', sk: 'mute#bob' })).toEqual([]);
  });

  it("copies a v2 pulled profile's flag onto every follower shard with pulledSince, in one transaction conditioned on the profile", () => {
    const [plan] = planPulledShards({ ...profileKey('star'), pulled: true, followers: 900 }, now) as [{ transaction: unknown[] }];
    expect(plan.transaction).toHaveLength(1 + FOLLOWER_SHARDS);
    expect(plan.transaction[0]).toEqual({
      update: profileKey('star'),
      set: { pulledSince: now.nowTicks },
      condition: { expression: 'pulled = :yes AND attribute_not_exists(pulledSince)', values: { ':yes': true } },
    });
    expect(plan.transaction.slice(1)).toEqual(allFollowerShardKeys('star').map((key) => ({ update: key, set: { pulled: true } })));
  });

  it('leaves profiles that are not pulled, or were migrated (pulledSince), and shards alone', () => {
    expect(planPulledShards({ ...profileKey('u'), followers: 3 }, now)).toEqual([]);
    expect(planPulledShards({ ...profileKey('u'), pulled: false }, now)).toEqual([]);
    expect(planPulledShards({ ...profileKey('u'), pulled: true, pulledSince: 5n }, now)).toEqual([]);
    expect(planPulledShards({ ...allFollowerShardKeys('u')[3]!, pulled: true }, now)).toEqual([]);
  });

  it("writes an erase mark's copy on every shard, and nothing for the copies themselves", () => {
    const mark = { ...erasureKey('gone'), done: true };
    expect(planErasureCopies(mark)).toEqual(Array.from({ length: FOLLOWER_SHARDS }, (_, s) => ({ put: erasureShardKey('gone', s) })));
    expect(planErasureCopies(erasureShardKey('gone', 4))).toEqual([]);
  });
});
