/** functions/model: the stored entities' builders and parsers (pure). */
import { describe, expect, it } from 'vitest';
import { toActivity } from '../../functions/model/activity.js';
import { activityIdOf, parseActivityId } from '../../functions/model/activity-id.js';
import { copyOf, homeFeedKey, homeFeedPartition, isOriginal } from '../../functions/model/feed-copy.js';
import { decodeCursor, encodeCursor } from '../../functions/model/cursor.js';
import { feedHeadKey, HEAD_RK, isFeedHead, parseFeedHead } from '../../functions/model/feed-head.js';
import { activeEdgeItem, followEdgeKey, followOrder, parseEdge } from '../../functions/model/follow-edge.js';
import { isFollowListSortKey, followListItem, followListKey, memberOfListSortKey } from '../../functions/model/follow-lists.js';
import { foreignIdItem, markedRk } from '../../functions/model/foreign-id.js';
import { FOLLOWER_SHARDS, followerShardKey, followerShardOf, parseProfile, profileKey } from '../../functions/model/profile.js';
import { MAX_TICKS, rangeKeyOf, ticksOfRangeKey } from '../../functions/model/range-key.js';
import { authorOfTimelinePk, isVisibleOriginal, timelineItem, timelineKey, timelinePartition, TOMBSTONE_SECONDS } from '../../functions/model/timeline-item.js';

/** A Number read with `wrapNumbers`: a string inside an object. */
const numberValue = (v: bigint | number) => ({ value: String(v), toString: () => String(v) });

const ticks = 1_795_372_201_123_456_789n;
const postedAt = '2026-11-22T18:30:01.123456789Z';

describe('timeline items (originals)', () => {
  it('live in the author’s timeline partition, keyed by server ticks and a discriminator', () => {
    const item = timelineItem('alice', { verb: 'post' }, ticks, 7n, postedAt, undefined);
    const rk = rangeKeyOf(ticks, 7n);
    expect(item).toMatchObject({ pk: 't#alice', rk, id: activityIdOf('alice', rk), actor: 'alice', verb: 'post', time: postedAt });
    expect(timelineKey('alice', rk)).toEqual({ pk: 't#alice', rk });
    expect(parseActivityId(item.id)).toEqual({ actor: 'alice', rk }); // the id is the original's key
    expect(item).not.toHaveProperty('author');
  });

  it('keep the client’s time as the activity’s own time, never as its position', () => {
    const item = timelineItem('alice', { verb: 'post', time: '2020-01-01T00:00:00Z' }, ticks, 0n, postedAt, undefined);
    expect(item.time).toBe('2020-01-01T00:00:00Z');
    expect(ticksOfRangeKey(item.rk)).toBe(ticks);
  });

  it('carry every posted field, and the TTL only when TIMELINE_TTL gives one', () => {
    const input = { verb: 'post', object: 'photo:1', content: 'hi', attributes: { n: 1, s: 'x', b: true }, foreignId: 'f1' };
    const item = timelineItem('alice', input, ticks, 0n, postedAt, 1_900_000_000);
    expect(item).toMatchObject({ ...input, expiresAt: 1_900_000_000 });
    expect(timelineItem('alice', { verb: 'post' }, ticks, 0n, postedAt, undefined).expiresAt).toBeUndefined();
  });

  it('name their author by partition; other partitions have none', () => {
    expect(timelinePartition('a#b')).toBe('t#a#b');
    expect(authorOfTimelinePk('t#a#b')).toBe('a#b');
    expect(authorOfTimelinePk('f#a')).toBeUndefined();
    expect(authorOfTimelinePk('alice')).toBeUndefined(); // v1 feed items
    expect(authorOfTimelinePk(undefined)).toBeUndefined();
  });

  it('are visible unless marked deleted, expired, or not an original at all', () => {
    const now = 1_800_000_000;
    const item = { ...timelineItem('alice', { verb: 'post' }, ticks, 0n, postedAt, undefined) };
    expect(isVisibleOriginal(item, now)).toBe(true);
    expect(isVisibleOriginal(undefined, now)).toBe(false);
    expect(isVisibleOriginal({ ...item, deletedAt: '2026-11-22T00:00:00Z', expiresAt: now + TOMBSTONE_SECONDS }, now)).toBe(false);
    expect(isVisibleOriginal({ ...item, expiresAt: numberValue(now) }, now)).toBe(false); // TTL deletes lazily
    expect(isVisibleOriginal({ ...item, expiresAt: numberValue(now + 1) }, now)).toBe(true);
    expect(isVisibleOriginal(copyOf(item, 'bob', undefined), now)).toBe(false);
  });
});

describe('home-feed copies', () => {
  const original = {
    ...timelineItem('alice', { verb: 'post', content: 'hi', attributes: { n: 1 } }, ticks, 9n, postedAt, 1_900_000_000),
    deletedAt: '2026-11-22T19:00:00Z',
  };

  it('keep the original’s fields and rk, in f#owner, with their own expiresAt', () => {
    const copy = copyOf(original, 'bob', 1_700_000_000);
    const { pk: _pk, expiresAt: _e, deletedAt: _d, ...fields } = original;
    expect(copy).toEqual({ ...fields, pk: 'f#bob', expiresAt: 1_700_000_000 });
    expect(copy.rk).toBe(original.rk);
    expect(homeFeedKey('bob', original.rk)).toEqual({ pk: copy.pk, rk: copy.rk });
  });

  it('never carry deletedAt, nor the timeline TTL when FEED_TTL is off', () => {
    const copy = copyOf(original, 'bob', undefined);
    expect(copy).not.toHaveProperty('deletedAt');
    expect(copy).not.toHaveProperty('expiresAt');
    expect(copy.pk).toBe(homeFeedPartition('bob'));
  });

  it('leave the original untouched, and read back as the same activity', () => {
    const before = structuredClone(original);
    const copy = copyOf(original, 'alice', 1_700_000_000); // the author's own copy
    expect(original).toEqual(before);
    expect(toActivity(copy)).toEqual(toActivity(original));
  });

  it('are not originals (and neither is a head)', () => {
    expect(isOriginal(original)).toBe(true);
    expect(isOriginal(copyOf(original, 'bob', undefined))).toBe(false);
    expect(isOriginal(feedHeadKey('bob'))).toBe(false);
  });
});

describe('home-feed head', () => {
  it('sits at rk 0 of f#owner, above every post', () => {
    expect(feedHeadKey('bob')).toEqual({ pk: 'f#bob', rk: 0n });
    expect(HEAD_RK < rangeKeyOf(MAX_TICKS - 1n, 0n)).toBe(true);
    expect(isFeedHead({ pk: 'f#bob', rk: numberValue(0) })).toBe(true);
    expect(isFeedHead({ pk: 'f#bob', rk: numberValue(rangeKeyOf(ticks, 0n)) })).toBe(false);
  });

  it('parses an absent head as no pulled authors and no trim yet', () => {
    expect(parseFeedHead(undefined)).toEqual({ pulled: [], tags: [], top: undefined });
    expect(parseFeedHead({ ...feedHeadKey('bob') })).toEqual({ pulled: [], tags: [], top: undefined });
  });

  it('parses the pulled set (sorted) and the last trim’s mark as stored', () => {
    const top = rangeKeyOf(ticks, 3n);
    expect(parseFeedHead({ ...feedHeadKey('bob'), pulled: new Set(['zed', 'amy']), tags: new Set(['tea', 'café']), top: numberValue(top) })).toEqual({
      pulled: ['amy', 'zed'],
      tags: ['café', 'tea'],
      top,
    });
  });
});

describe('activities on the wire', () => {
  it('turn a stored item into the wire shape, absent fields null, numbers exact', () => {
    const rk = rangeKeyOf(ticks, 5n);
    const stored = {
      pk: 'f#bob',
      rk: numberValue(rk),
      id: 'x',
      actor: 'alice',
      verb: 'post',
      time: postedAt,
      attributes: { n: numberValue(2.5), s: 'v', b: false },
    };
    expect(toActivity(stored)).toEqual({
      id: 'x',
      actor: 'alice',
      verb: 'post',
      object: null,
      content: null,
      attributes: { n: 2.5, s: 'v', b: false },
      foreignId: null,
      to: null,
      tags: null,
      time: postedAt,
      rangeKey: rk.toString(),
      version: 1,
      editedAt: null,
    });
    const edited = { ...stored, version: numberValue(3n), editedAt: '2026-11-27T10:00:00.000000000Z' };
    expect(toActivity(edited)).toMatchObject({ version: 3, editedAt: '2026-11-27T10:00:00.000000000Z' });
  });
});

describe('follow graph items', () => {
  it('order follows newest first with fixed-width sort prefixes', () => {
    expect(followOrder(MAX_TICKS)).toBe('0'.repeat(19));
    expect(followOrder(0n)).toBe(MAX_TICKS.toString());
    expect(followOrder(ticks + 1n) < followOrder(ticks)).toBe(true);
    expect(followOrder(5n)).toHaveLength(19);
  });

  it('build and parse edges', () => {
    const edge = activeEdgeItem('a', 'b', ticks, true);
    expect(edge).toEqual({ ...followEdgeKey('a', 'b'), state: 'active', order: followOrder(ticks), followedAt: ticks.toString(), backfillPending: true });
    expect(activeEdgeItem('a', 'b', ticks, false)).not.toHaveProperty('backfillPending');
    expect(parseEdge(edge)).toEqual({
      state: 'active',
      order: followOrder(ticks),
      followedAt: ticks,
      backfillPending: true,
      cleanupPending: false,
      muted: false,
    });
    expect(parseEdge(activeEdgeItem('a', 'b', ticks, false, true))).toMatchObject({ backfillPending: false, muted: true });
    expect(parseEdge({ ...edge, state: 'gone', cleanupPending: true })).toMatchObject({ state: 'gone', cleanupPending: true });
    expect(parseEdge(undefined)).toBeUndefined();
  });

  it('key list entries by order then member, and read the member back even with # in it', () => {
    const order = followOrder(ticks);
    expect(followListKey('followers', 'b', order, 'a#1')).toEqual({ pk: 'followers#b', sk: `${order}#a#1` });
    expect(followListItem('following', 'a', order, 'b')).toEqual({ pk: 'following#a', sk: `${order}#b`, userId: 'b' });
    expect(memberOfListSortKey(`${order}#a#1`)).toBe('a#1');
  });

  it('round-trip list cursors, and reject ones this API cannot have produced', () => {
    const sk = `${followOrder(ticks)}#user é#1`;
    const cursor = encodeCursor(sk);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, isFollowListSortKey)).toBe(sk);
    for (const bad of [
      '',
      'abc',
      `${cursor}=`,
      encodeCursor('123#x'),
      encodeCursor(`${followOrder(ticks)}#`),
      encodeCursor(`x${followOrder(ticks)}#a`),
      encodeCursor(`${followOrder(ticks)}#${'x'.repeat(1500)}`),
    ]) {
      expect(decodeCursor(bad, isFollowListSortKey), bad).toBeUndefined();
    }
  });

  it('parse profiles, absent counters as zero', () => {
    expect(profileKey('a')).toEqual({ pk: 'user#a', sk: 'profile' });
    expect(parseProfile(undefined)).toEqual({ followers: 0, following: 0, pulled: false, graphVersion: 0 });
    expect(parseProfile({ followers: numberValue(7), following: numberValue(3), pulled: true })).toEqual({
      followers: 7,
      following: 3,
      pulled: true,
      graphVersion: 0,
    });
  });

  it('sum a profile’s follower-count shards, a negative one included', () => {
    const shard = (n: number, s: number) => ({ ...followerShardKey('a', s), followers: numberValue(n), pulled: true });
    const main = { ...profileKey('a'), followers: numberValue(5), following: numberValue(2), graphVersion: numberValue(9) };
    expect(parseProfile([shard(3, 0), main, shard(-1, 7)])).toEqual({ followers: 7, following: 2, pulled: false, graphVersion: 9 });
    expect(parseProfile([shard(4, 1)])).toEqual({ followers: 4, following: 0, pulled: false, graphVersion: 0 });
  });

  it('pick a follower’s shard from their id, the next one on each retry', () => {
    const first = followerShardOf('alice');
    expect(followerShardOf('alice')).toBe(first);
    expect(followerShardOf('alice', 2)).toBe((first + 1) % FOLLOWER_SHARDS);
    expect(followerShardOf('alice', FOLLOWER_SHARDS + 1)).toBe(first);
    const spread = new Set(Array.from({ length: 200 }, (_, i) => followerShardOf(`user-${i}`)));
    expect(spread.size).toBeGreaterThan(FOLLOWER_SHARDS * 0.8);
    expect(followerShardKey('a', 3)).toEqual({ pk: 'user#a', sk: 'profile#f03' });
  });

  it('mark a foreignId with the original’s rk', () => {
    const rk = rangeKeyOf(ticks, 1n);
    const marker = foreignIdItem('alice', 'f-1', rk, activityIdOf('alice', rk));
    expect(marker).toEqual({ pk: 'foreign#alice', sk: 'f-1', rk, id: activityIdOf('alice', rk) });
    expect(markedRk({ ...marker, rk: numberValue(rk) })).toBe(rk);
  });
});
