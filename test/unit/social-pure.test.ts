/**
 * Pure parts of reactions, comments and notifications: mentions, counter events, which stream
 * records notify whom, group folding and the head's per-day counts, and the aggregated-feed fold.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { Activity } from '../../functions/model/activity.js';
import { activityIdOf } from '../../functions/model/activity-id.js';
import { parseCommentId } from '../../functions/model/comment.js';
import { decodeCursor, encodeCursor } from '../../functions/model/cursor.js';
import { mentionsIn } from '../../functions/model/mentions.js';
import {
  countsOfHead,
  foldEvents,
  claimedEventId,
  groupIdOf,
  kindOfVerb,
  headAttribute,
  markGroup,
  type NotificationEvent,
  isOrderSk,
  ORDER_PREFIX,
  orderSortKey,
  parseGroupId,
  removalDelta,
  staleHeadAttributes,
} from '../../functions/model/notification.js';
import { newDiscriminator, rangeKeyOf } from '../../functions/model/range-key.js';
import { counterKey, encodeCounterEvent, parseCounterEvent } from '../../functions/model/reaction.js';
import { timelineItem } from '../../functions/model/timeline-item.js';
import { isoFromTicks } from '../../functions/platform/clock.js';
import type { StreamImage } from '../../functions/platform/dynamo/images.js';
import { parseJob } from '../../functions/services/jobs/jobs.js';
import { jobsOfBatch, jobsOfRecord } from '../../functions/services/jobs/outbox-jobs.js';
import { foldActivities } from '../../functions/services/feed-aggregation.js';
import { notifyJobs } from '../../functions/services/notifications/events.js';
import { expiresAtOf, windowStart } from '../../functions/services/notifications/notification-policy.js';

const day0 = BigInt(Date.UTC(2026, 10, 22, 10)) * 1_000_000n;
const HOUR = 3_600_000_000_000n;
const image = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true }) as StreamImage;
function record(eventName: 'INSERT' | 'MODIFY', item: Record<string, unknown>, old?: Record<string, unknown>): DynamoDBRecord {
  return {
    eventName,
    dynamodb: {
      Keys: image({ pk: item.pk, rk: item.rk }),
      NewImage: image(item),
      ...(old ? { OldImage: image(old) } : {}),
      SequenceNumber: '1',
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

describe('mentions', () => {
  it('finds @ids at a word start, drops trailing periods, dedupes, ignores emails', () => {
    expect(mentionsIn('hi @bob and @carol. also @bob, mail me at x@y.z')).toEqual(['bob', 'carol']);
    expect(mentionsIn('@a.b.c!')).toEqual(['a.b.c']);
    expect(mentionsIn(undefined)).toEqual([]);
  });
  it('notifies at most 20 users', () => {
    expect(mentionsIn(Array.from({ length: 30 }, (_, i) => `@u${i}`).join(' '))).toHaveLength(20);
  });
});

describe('counter events and the outbox', () => {
  const alicePost = activityIdOf('alice', rangeKeyOf(day0, 7n));
  const counter = (ev?: string) => ({ ...counterKey(alicePost), n_like: 1, ...(ev ? { ev } : {}) });

  it('round-trips a counter event', () => {
    const ev = { actor: 'bob', kind: 'comment', ticks: day0, commentId: '123' };
    expect(parseCounterEvent(encodeCounterEvent(ev))).toEqual(ev);
    expect(parseCounterEvent('{"a":1}')).toBeUndefined();
    expect(parseCounterEvent('nope')).toBeUndefined();
  });

  it("turns a counter add into one notify job for the activity's author, and nothing else", () => {
    const ev = encodeCounterEvent({ actor: 'bob', kind: 'like', ticks: day0 });
    const [job, ...rest] = jobsOfRecord(record('MODIFY', counter(ev), counter()));
    expect(rest).toEqual([]);
    expect(parseJob(JSON.stringify(job))).toEqual(job);
    expect(job).toMatchObject({ kind: 'notify', recipient: 'alice', events: [{ verb: 'like', object: alicePost, actor: 'bob', source: alicePost }] });
    // The same record again (a redelivery) yields the same event id: the claim makes it a no-op.
    expect(jobsOfRecord(record('MODIFY', counter(ev), counter()))).toEqual([job]);
  });

  it('ignores removals (no ev), unchanged ev, and self-reactions', () => {
    const ev = encodeCounterEvent({ actor: 'bob', kind: 'like', ticks: day0 });
    expect(jobsOfRecord(record('MODIFY', counter(), counter(ev)))).toEqual([]);
    expect(jobsOfRecord(record('MODIFY', { ...counter(ev), closed: true }, counter(ev)))).toEqual([]);
    expect(jobsOfRecord(record('MODIFY', counter(encodeCounterEvent({ actor: 'alice', kind: 'like', ticks: day0 })), counter()))).toEqual([]);
  });

  it('an original with mentions and `to` yields its fanout job plus one notify job per other user', () => {
    const item = timelineItem(
      'alice',
      { verb: 'invite', object: 'game:7', content: 'hey @bob @alice', to: ['carol', 'bob', 'alice'] },
      day0,
      newDiscriminator(),
      isoFromTicks(day0),
      undefined,
    );
    const jobs = jobsOfRecord(record('INSERT', item));
    expect(jobs.map((j) => j.kind)).toEqual(['fanout', 'notify', 'notify']);
    const byRecipient = Object.fromEntries(jobs.flatMap((j) => (j.kind === 'notify' ? [[j.recipient, j.events.map((e) => `${e.verb}:${e.object}`)]] : [])));
    expect(byRecipient).toEqual({ bob: [`mention:${item.id}`, 'invite:game:7'], carol: ['invite:game:7'] });
  });

  it("merges a stream batch's notify jobs per recipient (≤ 20 events each), each job naming its lowest sequence number", () => {
    const likeBy = (actor: string, seq: string) => {
      const r = record('MODIFY', counter(encodeCounterEvent({ actor, kind: 'like', ticks: day0 })), counter());
      return { ...r, dynamodb: { ...r.dynamodb, SequenceNumber: seq } };
    };
    const records = Array.from({ length: 45 }, (_, i) => likeBy(`u${i}`, String(100 + i)));
    const jobs = jobsOfBatch(records);
    expect(jobs.map((j) => [j.job.kind, (j.job as { events: unknown[] }).events.length, j.seq])).toEqual([
      ['notify', 20, '100'],
      ['notify', 20, '100'],
      ['notify', 5, '100'],
    ]);
    expect(new Set(jobs.flatMap((j) => (j.job as { events: { actor: string }[] }).events.map((e) => e.actor))).size).toBe(45);
  });

  it('splits a recipient with many events into jobs of at most 20', () => {
    const ev = (i: number): NotificationEvent => ({ kind: 'reaction', verb: 'like', object: 'o', actor: `u${i}`, id: `e${i}`, ticks: day0 });
    const jobs = notifyJobs(Array.from({ length: 45 }, (_, i) => ({ recipient: 'alice', event: ev(i) })));
    expect(jobs.map((j) => j.events.length)).toEqual([20, 20, 5]);
  });
});

describe('notification groups', () => {
  const gid = groupIdOf('like', 'post/1', '2026-11-22');
  const like = (actor: string, at: bigint, id = `${actor}@${at}`): NotificationEvent => ({
    kind: 'reaction',
    verb: 'like',
    object: 'post/1',
    actor,
    id,
    ticks: at,
  });

  it('group ids are per verb + object + UTC day, of a fixed length whatever the object, and reject forgeries', () => {
    expect(parseGroupId(gid)).toEqual({ day: '2026-11-22' });
    expect(groupIdOf('like', 'x'.repeat(1400), '2026-11-22')).toHaveLength(gid.length); // fits any sort key
    expect(groupIdOf('love', 'post/1', '2026-11-22')).not.toBe(gid);
    expect(groupIdOf('like', 'post/1', '2026-11-23')).not.toBe(gid);
    expect(parseGroupId('x.y.2026-11-22')).toBeUndefined(); // not canonical base64url of anything sensible
    expect(parseGroupId('nonsense')).toBeUndefined();
  });

  it('an addressed (`to`) group never shares an id with a follow, reaction, comment or mention group', () => {
    for (const verb of ['follow', 'like', 'comment', 'mention']) {
      expect(groupIdOf(verb, 'post/1', '2026-11-22', 'to')).not.toBe(groupIdOf(verb, 'post/1', '2026-11-22'));
      expect(parseGroupId(groupIdOf(verb, 'post/1', '2026-11-22', 'to'))).toEqual({ day: '2026-11-22' });
    }
    expect(groupIdOf('like', 'post/1', '2026-11-22', 'reaction')).toBe(gid); // the kind a verb implies is the default
    expect([kindOfVerb('follow'), kindOfVerb('mention'), kindOfVerb('comment'), kindOfVerb('like')]).toEqual(['follow', 'mention', 'comment', 'reaction']);
    expect(claimedEventId(`to:${'x'.repeat(1400)}`)).toHaveLength(claimedEventId('e1').length); // claims hold fixed-size hashes
  });

  it('a new group counts one unseen and one unread; folding into it counts actors once', () => {
    const a = foldEvents(undefined, gid, [like('bob', day0), like('carol', day0 + 1n)], new Set(['bob', 'carol']));
    expect(a.delta).toEqual({ unseen: 1, unread: 1, groups: 1 });
    expect(a.next).toMatchObject({ actors: ['carol', 'bob'], actorCount: 2, activityCount: 2, seen: false, version: 1 });
    // bob again (like/unlike/like): a new event, not a new actor.
    const b = foldEvents(a.next, gid, [like('bob', day0 + HOUR)], new Set());
    expect(b.delta).toEqual({ unseen: 0, unread: 0, groups: 0 });
    expect(b.next).toMatchObject({ actors: ['bob', 'carol'], actorCount: 2, activityCount: 3, updatedTicks: day0 + HOUR });
  });

  it('keeps at most 5 actors, newest first; a late (out-of-order) event goes behind', () => {
    const events = ['a', 'b', 'c', 'd', 'e', 'f'].map((u, i) => like(u, day0 + BigInt(i)));
    const g = foldEvents(undefined, gid, events, new Set(events.map((e) => e.actor))).next;
    expect(g.actors).toEqual(['f', 'e', 'd', 'c', 'b']);
    const late = foldEvents(g, gid, [like('z', day0 - 1n)], new Set(['z'])).next;
    expect(late.actors).toEqual(['f', 'e', 'd', 'c', 'b']);
    expect(late.updatedTicks).toBe(g.updatedTicks);
    expect(late.actorCount).toBe(7);
  });

  it('a seen or read group becomes unseen/unread again when it grows, and the head follows', () => {
    const g = foldEvents(undefined, gid, [like('bob', day0)], new Set(['bob'])).next;
    const seen = markGroup(g, 'seen')!;
    expect(seen.delta).toEqual({ unseen: -1, unread: 0, groups: 0 });
    expect(markGroup(seen.next, 'seen')).toBeUndefined();
    const read = markGroup(seen.next, 'read')!;
    expect(read.delta).toEqual({ unseen: 0, unread: -1, groups: 0 });
    expect(foldEvents(read.next, gid, [like('carol', day0 + 1n)], new Set(['carol'])).delta).toEqual({ unseen: 1, unread: 1, groups: 0 });
    expect(foldEvents(seen.next, gid, [like('carol', day0 + 1n)], new Set(['carol'])).delta).toEqual({ unseen: 1, unread: 0, groups: 0 });
    // read implies seen
    expect(markGroup(g, 'read')!.delta).toEqual({ unseen: -1, unread: -1, groups: 0 });
    expect(removalDelta(g)).toEqual({ unseen: -1, unread: -1, groups: -1 });
    expect(removalDelta(read.next)).toEqual({ unseen: 0, unread: 0, groups: -1 });
  });

  it('the head sums only days inside the window, and names the stale ones', () => {
    const head = {
      [headAttribute('unseen', '2026-11-20')]: 3,
      [headAttribute('unseen', '2026-11-22')]: 2,
      [headAttribute('unread', '2026-11-22')]: 1,
      [headAttribute('groups', '2026-11-22')]: 4,
      pk: 'n#a',
      sk: 'head',
    };
    expect(countsOfHead(head, '2026-11-21')).toEqual({ unseen: 2, unread: 1, groups: 4 });
    expect(countsOfHead(head, '0000-00-00')).toEqual({ unseen: 5, unread: 1, groups: 4 });
    expect(staleHeadAttributes(head, '2026-11-21')).toEqual(['unseen:2026-11-20']);
  });

  it('order keys sort most recently updated first, and cursors round-trip', () => {
    const newer = orderSortKey(day0 + 1n, gid);
    const older = orderSortKey(day0, gid);
    expect(newer < older).toBe(true);
    expect(decodeCursor(encodeCursor(newer), isOrderSk)).toBe(newer);
    for (const bad of ['o#123#x', newer.slice(ORDER_PREFIX.length), `${newer}x`]) expect(decodeCursor(encodeCursor(bad), isOrderSk), bad).toBeUndefined();
  });

  it('the age window starts at a UTC day; items expire a TTL after their day ends', () => {
    const now = Date.UTC(2026, 10, 22, 15);
    expect(windowStart(now, 2 * 86_400_000).day).toBe('2026-11-20');
    expect(windowStart(now, undefined).ticks).toBe(0n);
    expect(expiresAtOf('2026-11-22', 86_400_000)).toBe(Date.UTC(2026, 10, 24) / 1000);
  });
});

describe('comments and the aggregated feed', () => {
  it('comment ids are canonical range keys', () => {
    expect(parseCommentId('123')).toBe(123n);
    expect(parseCommentId('0123')).toBeUndefined();
    expect(parseCommentId('0')).toBeUndefined();
    expect(parseCommentId('x')).toBeUndefined();
  });

  const act = (actor: string, verb: string, ticks: bigint): Activity => {
    const rk = rangeKeyOf(ticks, 1n);
    return {
      id: activityIdOf(actor, rk),
      actor,
      verb,
      object: null,
      content: null,
      attributes: null,
      foreignId: null,
      to: null,
      tags: null,
      time: isoFromTicks(ticks),
      rangeKey: rk.toString(),
      version: 1,
      editedAt: null,
    };
  };

  it('folds consecutive same actor + verb + UTC day, newest first, showing at most 5', () => {
    const midnight = BigInt(Date.UTC(2026, 10, 22)) * 1_000_000n;
    const items = [
      ...Array.from({ length: 7 }, (_, i) => act('bob', 'like', midnight + HOUR * BigInt(10 - i))),
      act('carol', 'like', midnight + HOUR * 2n),
      act('bob', 'like', midnight + HOUR), // not consecutive with the first run: its own group
      act('bob', 'like', midnight - HOUR), // the day before
    ];
    const groups = foldActivities(items);
    expect(groups.map((g) => [g.actor, g.count, g.shown.length])).toEqual([
      ['bob', 7, 5],
      ['carol', 1, 1],
      ['bob', 1, 1],
      ['bob', 1, 1],
    ]);
    expect(groups[0]!.shown[0]!.rangeKey).toBe(items[0]!.rangeKey);
    expect(groups[0]!.oldest.toString()).toBe(items[6]!.rangeKey);
  });
});
