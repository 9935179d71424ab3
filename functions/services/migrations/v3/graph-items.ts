/**
 * v2 → v3, the graph items a v3 check reads but v2 never wrote (item by item; the notification
 * partitions are planned whole, in notification-partition.ts):
 * - a mute or block list entry (`ctl#<user>` / `mute#<target>`) gets its check entry
 *   (`mh#<hash(target)>`): v3 checks read only that, so without it a v2 mute reads as no mute;
 * - a pulled profile copies `pulled` onto each follower-count shard: a v3 follow checks its shard;
 * - an erase mark gets its copy per shard: a v3 follow's transaction checks the copy.
 * All three write items whose content is fixed by their key (or one flag), so a re-run writes the
 * same thing again; the check entry is written only where none exists, so a mute placed or lifted
 * through the v3 API meanwhile (its `cleanupPending` flag) is never overwritten.
 */
import { FOLLOWER_SHARDS, allFollowerShardKeys, profileKey } from '../../../model/profile.js';
import { isErasureMark, markShardKey } from '../../../model/erasure.js';
import { controlCheckKey, isErasedTarget, kindOfControlSk, otherOfControlSk } from '../../../model/user-controls.js';
import type { JobOf } from '../../jobs/define.js';
import type { pullJob } from '../../pulled-authors/pull-job.js';
import type { MigrationWrite, PlanContext, StoredItem } from '../step.js';

const CONTROL_PARTITION = 'ctl#';
const PROFILE_PARTITION = 'user#';

/**
 * A mute or block list entry → its check entry, unless one exists, and only while the list entry
 * does: a v3 unmute deletes both in one transaction, so a check entry written after it (from a
 * list entry scanned before it) would be a mute no list shows and nothing lifts.
 */
export function planControlCheck(item: StoredItem): MigrationWrite[] {
  const pk = String(item.pk);
  const sk = String(item.sk);
  if (!pk.startsWith(CONTROL_PARTITION)) return [];
  const kind = kindOfControlSk(sk);
  if (kind !== 'mute' && kind !== 'block') return [];
  const target = otherOfControlSk(sk);
  if (isErasedTarget(target)) return []; // a v3 entry: its check entry was kept by the erase
  const check = controlCheckKey(kind, pk.slice(CONTROL_PARTITION.length), target);
  return [
    {
      transaction: [
        { check: { pk, sk }, condition: { expression: 'attribute_exists(pk)' } },
        { put: check, condition: { expression: 'attribute_not_exists(pk)' } },
      ],
    },
  ];
}

/**
 * A profile pulled under v2 (the flag on the profile item only, no `pulledSince`) → the flag on
 * every shard, and `pulledSince` = now: since then no copies of the author's posts are written, so
 * a later retract may skip the posts after it (posts between the v2 pull and now were not copied
 * either; a retract of one only deletes copies that are not there). One transaction, conditioned on
 * the profile still pulled and not yet migrated: an unpull meanwhile, or a re-run, writes nothing.
 */
export function planPulledShards(item: StoredItem, { nowTicks }: PlanContext): MigrationWrite[] {
  const pk = String(item.pk);
  if (!pk.startsWith(PROFILE_PARTITION) || item.sk !== 'profile' || item.pulled !== true || item.pulledSince !== undefined) return [];
  const user = pk.slice(PROFILE_PARTITION.length);
  return [
    {
      transaction: [
        {
          update: profileKey(user),
          set: { pulledSince: nowTicks },
          condition: { expression: 'pulled = :yes AND attribute_not_exists(pulledSince)', values: { ':yes': true } },
        },
        // Each shard may hold a count already: set the flag, never replace the item.
        ...allFollowerShardKeys(user).map((key) => ({ update: key, set: { pulled: true } })),
      ],
    },
  ];
}

/**
 * After a v2 pulled profile's shards got the flag: its `pull` job once more, which adds the author
 * to each follower's pulled set. A follow made while the migration ran read "not pulled" from a
 * shard not yet migrated and was made as a push follow, which the fan-out (reading the profile)
 * never copies to: the job puts the author in that follower's pulled set, so reads merge them.
 */
export function repairJobsOfPulled(item: StoredItem): JobOf<typeof pullJob>[] {
  const pk = String(item.pk);
  if (!pk.startsWith(PROFILE_PARTITION) || item.sk !== 'profile' || item.pulled !== true || item.pulledSince !== undefined) return [];
  return [{ kind: 'pull', author: pk.slice(PROFILE_PARTITION.length) }];
}

/** An erase mark → its copy on every shard (empty items: their key is all they say). */
export function planErasureCopies(item: StoredItem): MigrationWrite[] {
  if (!isErasureMark(item)) return [];
  return Array.from({ length: FOLLOWER_SHARDS }, (_, shard) => ({ put: markShardKey(String(item.pk), shard) }));
}
