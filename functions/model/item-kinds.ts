/**
 * Every kind of item tickfeed stores, declared once: its table, its key template as the docs show
 * it, its attributes, the one store that writes it, and example keys from the model's own key
 * functions — a unit test checks each example against the template, so the template cannot drift
 * from the code, and another that every key function of the model is named here. The item tables
 * of docs/data-model.md are generated from this list (`npm run docs`; the docs test fails
 * when they are stale).
 */
import { activityEntryKey } from './activity-entry.js';
import { historyKey } from './activity-history.js';
import { commentKey } from './comment.js';
import { connectionKey } from './connection.js';
import { dataModelKey, migrationCheckpointKey } from './data-model.js';
import { erasureKey, erasureShardKey } from './erasure.js';
import { homeFeedKey } from './feed-copy.js';
import { feedHeadKey } from './feed-head.js';
import { followEdgeKey } from './follow-edge.js';
import { importCountMarkKey, importJournalKey } from './follow-import.js';
import { followListKey } from './follow-lists.js';
import { foreignIdKey } from './foreign-id.js';
import { actorIndexKey, claimKey, groupKey, notificationHeadKey, orderKey, strangerQuotaKey } from './notification.js';
import { followerShardKey, profileKey } from './profile.js';
import { rateBucketKey } from './rate-bucket.js';
import { counterKey, reactionKey } from './reaction.js';
import { rollupRowKey } from './rollup-row.js';
import { rollupCommitPartition } from './rollup-segment.js';
import { tagFeedKey, tagFollowerKey, tagFollowKey, tagMetaKey } from './tag-items.js';
import { tagKeyOf } from './tags.js';
import { timelineKey } from './timeline-item.js';
import { trendCounterKey, trendMarkerKey, trendTopKey } from './trend.js';
import { definitionKey, definitionListKey, readerMarksKey, snapshotKey } from './ranked-feed.js';
import { skeletonCacheKey } from './feed-generator.js';
import { controlCheckKey, controlListKey, erasedListKey, mirrorKey } from './user-controls.js';
import { ledgerCommentKey, ledgerReactionKey } from './user-ledger.js';

/** Where an item lives: a table of lib/defs/tables.ts, or the versions partition of the graph table. */
export type ItemTable = 'feed' | 'graph' | 'stats' | 'limits' | 'meta';

export interface ItemKind {
  readonly table: ItemTable;
  /** What it is, as the docs name it (markdown). */
  readonly item: string;
  /** The partition and sort (or range) key as the docs show them: literal text, `<placeholders>`. */
  readonly pk: string;
  readonly sk: string;
  readonly attributes: string;
  /** The store (functions/stores/<owner>.ts) that writes it; others' transactions take their parts from it. */
  readonly owner: string;
  /** Keys the model's key functions make for it: each starts as the template does. */
  readonly examples: () => readonly { readonly pk: string; readonly sk?: string; readonly rk?: bigint }[];
}

const ORDER = '0000000000000000001';
const GID = 'AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.2026-11-27';

export const itemKinds: readonly ItemKind[] = [
  {
    table: 'feed',
    item: "original, in the author's **user timeline** (what a user owns)",
    pk: '`t#<author>`',
    sk: "the post's range key",
    attributes:
      '`id, actor, verb, object?, content?, attributes?, foreignId?, to?, tags?, time`; `expiresAt` only with `TIMELINE_TTL`; once edited `version` (absent: 1) and `editedAt`; once deleted `deletedAt` (a hidden tombstone)',
    owner: 'feed-store',
    examples: () => [timelineKey('alice', 7n)],
  },
  {
    table: 'feed',
    item: "an edited activity's **earlier version** (its history: the last 20)",
    pk: '`v#<activityId>`',
    sk: 'the version number',
    attributes:
      "the original's fields as they were at that version (`version`, `editedAt` of that version), `replacedAt`: when the edit that replaced it was made",
    owner: 'history-store',
    examples: () => [historyKey('alice:7', 1)],
  },
  {
    table: 'feed',
    item: 'copy, in a **home feed** (what a user is shown)',
    pk: '`f#<owner>`',
    sk: "the post's range key",
    attributes: "the original's fields (`version` and `editedAt` brought along by each edit); `expiresAt` from `FEED_TTL`; `w`: when it was last written",
    owner: 'feed-store',
    examples: () => [homeFeedKey('bob', 7n)],
  },
  {
    table: 'feed',
    item: 'home-feed **head**',
    pk: '`f#<owner>`',
    sk: '`0`',
    attributes:
      "`pulled`: string set of the pulled authors the owner follows; `top`: rk of the newest copy when the last count trim ran; `activeUntil?`: ticks, the activity bound last stamped on all the owner's follows — posts after it may be missing from the stored feed, so a read merges them ([who gets a copy](lanes.md#who-gets-a-copy))",
    owner: 'feed-store',
    examples: () => [feedHeadKey('bob')],
  },
  {
    table: 'feed',
    item: 'entry in a **tag feed** ([tags](api.md#tags))',
    pk: '`g#<tag>`',
    sk: "the post's range key",
    attributes: "the original's fields (`tags` among them); deleted with the post",
    owner: 'tag-store',
    examples: () => [tagFeedKey(tagKeyOf('café'), 7n)],
  },
  {
    table: 'feed',
    item: '**comment** on an activity',
    pk: '`c#<activityId>`',
    sk: "the comment's range key (its `id`)",
    attributes: "`activityId, author` (the activity's), `actor, text, time`",
    owner: 'social-store',
    examples: () => [commentKey('alice:7', 9n)],
  },
  {
    table: 'feed',
    item: "an activity's reaction **counter**",
    pk: '`x#<activityId>`',
    sk: '`0`',
    attributes:
      '`n_<kind>` per kind and `n_comment` (exact counts); `ev`: the last add (actor, kind, server ticks, comment id), whose stream record notifies the author; once the activity is deleted `closed` and `expiresAt` (adds then fail)',
    owner: 'social-store',
    examples: () => [counterKey('alice:7')],
  },
  {
    table: 'graph',
    item: 'follow edge',
    pk: '`follow#<follower>`',
    sk: '`<followee>`',
    attributes:
      "`state` (active/gone; a gone edge is deleted by the unfollow's second cleanup), `order`, `followedAt`, `backfillPending?`, `cleanupPending?`, `muted?` (the follower muted the followee)",
    owner: 'follow-store',
    examples: () => [followEdgeKey('bob', 'alice')],
  },
  {
    table: 'graph',
    item: 'follower list entry',
    pk: '`followers#<followee>`',
    sk: '`<order>#<follower>`',
    attributes:
      '`userId`, `muted?` (as on the edge: the fan-out skips the entry), `activeUntil?` (ticks: the follower reads until then; a post made later gets them no copy — absent: always copied)',
    owner: 'follow-store',
    examples: () => [followListKey('followers', 'alice', ORDER, 'bob')],
  },
  {
    table: 'graph',
    item: 'following list entry',
    pk: '`following#<follower>`',
    sk: '`<order>#<followee>`',
    attributes: '`userId`',
    owner: 'follow-store',
    examples: () => [followListKey('following', 'bob', ORDER, 'alice')],
  },
  {
    table: 'graph',
    item: 'a followed tag',
    pk: '`tagf#<user>`',
    sk: '`<tag>`',
    attributes: "`tag` (as the user wrote it), `followedAt` (server ticks), `mode`: `push` (copies) or `pull` (merged at read time: the head's `tags`)",
    owner: 'tag-store',
    examples: () => [tagFollowKey('bob', tagKeyOf('café'))],
  },
  {
    table: 'graph',
    item: "a tag's push follower",
    pk: '`tagfollowers#<tag>`',
    sk: '`<user>`',
    attributes:
      '`userId`: the tag fan-out walks these; `activeUntil?` (ticks, as on a follower list entry: a post made later gets them no copy — absent: always copied)',
    owner: 'tag-store',
    examples: () => [tagFollowerKey(tagKeyOf('café'), 'bob')],
  },
  {
    table: 'graph',
    item: "a tag's count",
    pk: '`tag#<tag>`',
    sk: '`meta`',
    attributes: "`followers`: its push followers, at most `FANOUT_PULL_THRESHOLD` (conditioned in each follow's transaction)",
    owner: 'tag-store',
    examples: () => [tagMetaKey(tagKeyOf('café'))],
  },
  {
    table: 'graph',
    item: 'profile',
    pk: '`user#<id>`',
    sk: '`profile`',
    attributes:
      '`following` (exact counter), `pulled`, `graphVersion` (raised by each follow and unfollow the user makes), `followers?` (a base count, from seeding)',
    owner: 'follow-store',
    examples: () => [profileKey('alice')],
  },
  {
    table: 'graph',
    item: '… its follower-count shards',
    pk: '`user#<id>`',
    sk: '`profile#f00` … `profile#f31`',
    attributes:
      "`followers` (their sum, with the base, is the count; one may be negative), `pulled` (a copy, set with the profile's in one transaction) — [why](bulk-import.md#how-follower-counts-are-kept)",
    owner: 'follow-store',
    examples: () => [followerShardKey('alice', 0), followerShardKey('alice', 31)],
  },
  {
    table: 'graph',
    item: 'bulk-import journal',
    pk: '`import#<hash(batch)>`',
    sk: '`follows`',
    attributes: 'the plan of a `POST /batch/follows` batch and how far it got, `expiresAt` (a day)',
    owner: 'follow-import-store',
    examples: () => [importJournalKey('batch-1')],
  },
  {
    table: 'graph',
    item: '… its counter marks',
    pk: '`import#<hash(batch)>`',
    sk: '`c#<nonce>#<n>`',
    attributes: '`expiresAt`: counter transaction `n` of the plan committed',
    owner: 'follow-import-store',
    examples: () => [importCountMarkKey('batch-1', 5n, 0)],
  },
  {
    table: 'graph',
    item: 'foreignId marker',
    pk: '`foreign#<actor>`',
    sk: '`<foreignId>`',
    attributes: '`rk`, `id` of the original',
    owner: 'feed-store',
    examples: () => [foreignIdKey('alice', 'post-1')],
  },
  {
    table: 'graph',
    item: 'reaction',
    pk: '`r#<activityId>`',
    sk: '`<userId>`',
    attributes: "`kinds`: string set of the user's reaction kinds on it; `author` of the activity",
    owner: 'social-store',
    examples: () => [reactionKey('alice:7', 'bob')],
  },
  {
    table: 'graph',
    item: 'notification **head**',
    pk: '`n#<user>`',
    sk: '`head`',
    attributes: '`unseen:<day>`, `unread:<day>`, `groups:<day>` per UTC day: `/notifications/counts` sums the days inside `NOTIFICATIONS_TTL`',
    owner: 'notification-store',
    examples: () => [notificationHeadKey('alice')],
  },
  {
    table: 'graph',
    item: 'notification **group**',
    pk: '`n#<user>`',
    sk: '`g#<gid>`',
    attributes: '`gid, kind, verb, object, day, actors` (newest 5), `actorCount, activityCount, updatedTicks, seen, read`, `version`, `expiresAt?`',
    owner: 'notification-store',
    examples: () => [groupKey('alice', GID)],
  },
  {
    table: 'graph',
    item: 'the group in page order',
    pk: '`n#<user>`',
    sk: '`o#<MAX − updated ticks>#<gid>`',
    attributes: "the group's attributes again; an update moves it (delete + put, in the group's transaction)",
    owner: 'notification-store',
    examples: () => [orderKey('alice', 5n, GID)],
  },
  {
    table: 'graph',
    item: "an actor's claim in a group",
    pk: '`n#<user>`',
    sk: '`a#<gid>#<hash(actor)>`',
    attributes: '`actor`, `events`: hashes of the event ids applied, at most 100 (a redelivered job finds its id and changes nothing), `expiresAt?`',
    owner: 'notification-store',
    examples: () => [claimKey('alice', GID, 'bob')],
  },
  {
    table: 'graph',
    item: "a stranger's starts",
    pk: '`n#<user>`',
    sk: '`q#<day>#<hash(sender)>`',
    attributes: '`started`: groups a sender the user does not follow started that day (`NOTIFY_STRANGER_LIMIT`), `expiresAt`',
    owner: 'notification-store',
    examples: () => [strangerQuotaKey('alice', '2026-11-27', 'bob')],
  },
  {
    table: 'graph',
    item: "the actor's index of their claims",
    pk: '`nby#<actor>`',
    sk: '`<hash(recipient)>.<gid>`',
    attributes: '`recipient`, `gid`, `expiresAt?`: written with a new claim, removed with it; an erase walks it',
    owner: 'notification-store',
    examples: () => [actorIndexKey('bob', 'alice', GID)],
  },
  {
    table: 'graph',
    item: 'a mute or block',
    pk: '`ctl#<user>`',
    sk: '`mh#<hash(target)>`, `bh#<hash(target)>`',
    attributes: "none: what every check reads; outlives the target's erase",
    owner: 'controls-store',
    examples: () => [controlCheckKey('mute', 'alice', 'bob'), controlCheckKey('block', 'alice', 'bob')],
  },
  {
    table: 'graph',
    item: '… its list entry',
    pk: '`ctl#<user>`',
    sk: '`mute#<target>`, `block#<target>`',
    attributes: '`userId` (the target); once the target is erased `mute#\\x7f<hash(target)>`, `erased`',
    owner: 'controls-store',
    examples: () => [controlListKey('mute', 'alice', 'bob'), controlListKey('block', 'alice', 'bob'), erasedListKey('mute', 'alice', 'bob')],
  },
  {
    table: 'graph',
    item: 'its mirror',
    pk: '`ctl#<target>`',
    sk: '`mutedBy#<user>`, `blockedBy#<user>`',
    attributes: '`userId` (the muter or blocker)',
    owner: 'controls-store',
    examples: () => [mirrorKey('mute', 'alice', 'bob'), mirrorKey('block', 'alice', 'bob')],
  },
  {
    table: 'graph',
    item: "ledger: the user's reaction",
    pk: '`ledger#<user>`',
    sk: '`r#<hash(activityId)>`',
    attributes: '`activityId`, `kinds` (as on the reaction item), `author` of the activity',
    owner: 'social-store',
    examples: () => [ledgerReactionKey('bob', 'alice:7')],
  },
  {
    table: 'graph',
    item: "ledger: the user's comment",
    pk: '`ledger#<user>`',
    sk: '`c#<hash(activityId)>#<rk>`',
    attributes: '`activityId`, `author` of the activity',
    owner: 'social-store',
    examples: () => [ledgerCommentKey('bob', 'alice:7', 9n)],
  },
  {
    table: 'graph',
    item: 'erase mark',
    pk: '`erased#<sha256(userId) in hex>`',
    sk: '`erased`',
    attributes: '`done`: false while the erase runs',
    owner: 'erasure-store',
    examples: () => [erasureKey('alice')],
  },
  {
    table: 'graph',
    item: '… its shard copies',
    pk: '`erased#<sha256(userId) in hex>`',
    sk: '`erased#<0–31>`',
    attributes: 'none: a follow checks the copy on its own follower-count shard',
    owner: 'erasure-store',
    examples: () => [erasureShardKey('alice', 0)],
  },
  {
    table: 'graph',
    item: 'realtime **connection** (one per open WebSocket)',
    pk: '`rt#on`',
    sk: '`<userId>#<connectionId>`',
    attributes:
      "`expiresAt` (2 h 10 min after connecting, past API Gateway's 2 h limit, so a connection whose `$disconnect` never ran goes by itself; reads filter expired ones): one partition for every user, so a fan-out page reads who is connected in one Query, and a user's connections are a `begins_with` on `<userId>#` ([realtime](realtime.md))",
    owner: 'connection-store',
    examples: () => [connectionKey({ userId: 'alice', connectionId: 'c1' })],
  },
  {
    table: 'graph',
    item: 'ranked-feed **definition** ([ranked feeds](ranked-feeds.md))',
    pk: '`rfeed#<feedId>`',
    sk: '`def`',
    attributes:
      "`owner` (who wrote it), `shared` (an admin's: every user may read it), `body` (the definition, JSON), `updatedAt`; a generator feed's `generatorSecret` (signs its reader tokens) and breaker, `failures` and `openUntil` (epoch ms)",
    owner: 'ranked-feed-store',
    examples: () => [definitionKey('news')],
  },
  {
    table: 'graph',
    item: "a feed generator's cached answer (not personalized)",
    pk: '`rgen#<feedId>`',
    sk: '`c#<digest of the definition version, limit and cursor>`',
    attributes: '`body` (the skeleton, JSON), `expiresAt` (30 seconds: reads check it)',
    owner: 'ranked-feed-store',
    examples: () => [skeletonCacheKey('news', 'AAAAAAAAAAAAAAAAAAAAAA')],
  },
  {
    table: 'graph',
    item: '… its list entry',
    pk: '`rfeeds#<owner>` (`rfeeds#*`: shared)',
    sk: '`<feedId>`',
    attributes: "`feedId`: GET /feeds pages it; written and deleted in the definition's transaction",
    owner: 'ranked-feed-store',
    examples: () => [definitionListKey('alice', 'news')],
  },
  {
    table: 'graph',
    item: "ranked-feed **snapshot**: one ranking's ids",
    pk: '`rsnap#<snapshotId>`',
    sk: '`ids`',
    attributes: '`reader`, `feedId`, `ids` (ranked), `scores`, `explain?` (variables per id), `expiresAt` (30 minutes): later pages read it, never re-rank',
    owner: 'ranked-feed-store',
    examples: () => [snapshotKey('AAAAAAAAAAAAAAAAAAAAAA')],
  },
  {
    table: 'graph',
    item: "a reader's ranked-feed marks",
    pk: '`rmarks#<reader>`',
    sk: '`marks`',
    attributes: '`seen` (activity ids, the newest 1,000), `weights` (author → less/more weight, 200 at most), `v` (conditional replace)',
    owner: 'ranked-feed-store',
    examples: () => [readerMarksKey('bob')],
  },
  {
    table: 'stats',
    item: 'rollup row: one (series, minute) of one segment',
    pk: '`rollup#<series>#<UTC day>#<split>`',
    sk: '`<minute>#<segmentId>`',
    attributes: '`series`, `t`, `value`, `n`, `expiresAt?`',
    owner: 'stats-store',
    examples: () => [rollupRowKey('posts', 0, 'seg', 4)],
  },
  {
    table: 'stats',
    item: 'recent-activity entry: one (actor, bucket) of one segment',
    pk: '`activity#<userId>`',
    sk: '`<bucket start>#<segmentId>`',
    attributes: '`userId`, `start`, `count`, `expiresAt` (the bucket leaves the window)',
    owner: 'stats-store',
    examples: () => [activityEntryKey('alice', 0, 'seg')],
  },
  {
    table: 'stats',
    item: "rollup commit mark: a written segment's range of stream records",
    pk: '`rollup-commit#<hash(stream, shard)>`',
    sk: '`<first sequence number, 40 digits>`',
    attributes: '`last`, `expiresAt` (2 days)',
    owner: 'stats-store',
    examples: () => [{ pk: rollupCommitPartition('arn', 'shard'), sk: '0' }],
  },
  {
    table: 'stats',
    item: 'trend marker: an author used a tag in a period',
    pk: '`trendm#<period>#<tag>`',
    sk: '`<hash(author)>`',
    attributes: "`expiresAt` (2 days after the period); written only if absent, with the counter's bump; no user id (an erase leaves it to expire)",
    owner: 'tag-store',
    examples: () => [trendMarkerKey('h2026-11-27T10', tagKeyOf('café'), 'alice')],
  },
  {
    table: 'stats',
    item: 'trend counter: distinct authors of a tag in a period',
    pk: '`trendc#<tag>`',
    sk: '`<period>` (`h<UTC hour>`, `d<UTC day>`)',
    attributes: '`n`, `tag` (as first written), `expiresAt`',
    owner: 'tag-store',
    examples: () => [trendCounterKey(tagKeyOf('café'), 'd2026-11-27')],
  },
  {
    table: 'stats',
    item: 'trend top list of a period',
    pk: '`trendtop#<period>`',
    sk: '`top`',
    attributes: '`top`: map tag → [distinct authors, tag as written], at most 50; `v` (version: conditional replace), `expiresAt`',
    owner: 'tag-store',
    examples: () => [trendTopKey('h2026-11-27T10')],
  },
  {
    table: 'limits',
    item: "a caller's bucket for one class of route",
    pk: '`rate#<userId>`',
    sk: '`posts`, `follows`, `reactions` or `reads`',
    attributes: "`tat` (the bucket's theoretical arrival time, µs since the epoch: GCRA), `expiresAt` (once the bucket is full again)",
    owner: 'limits-store',
    examples: () => [rateBucketKey('alice', 'posts')],
  },
  {
    table: 'meta',
    item: 'the version',
    pk: '`meta#data-model`',
    sk: '`version`',
    attributes:
      "`version`: the model every item has been brought to. Absent: v2 (no release before 0.2.0 wrote it). Moved when a migration's last segment is done (a fresh local directory gets it at once); never lowered",
    owner: 'migration-store',
    examples: () => [dataModelKey()],
  },
  {
    table: 'meta',
    item: "a migration's checkpoint, per Scan segment",
    pk: '`meta#data-model`',
    sk: '`run#<to>#<segment, 3 digits>` (`run#3#000` … `run#3#003`)',
    attributes:
      "`totalSegments`; `lastKey` (a map, the Scan's own key: where the segment's next page starts; absent once done); `done`; counts `scanned`, `changed`, `writes`. Saved after every page, so a stopped run resumes there; kept afterwards",
    owner: 'migration-store',
    examples: () => [migrationCheckpointKey(3, 0)],
  },
];
