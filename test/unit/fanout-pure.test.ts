/** Pure parts of the fan-out: which stream records become jobs, and job parsing. */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { toActivity } from '../../functions/model/activity.js';
import { copyOf } from '../../functions/model/feed-copy.js';
import { feedHeadKey } from '../../functions/model/feed-head.js';
import { newDiscriminator } from '../../functions/model/range-key.js';
import { timelineItem } from '../../functions/model/timeline-item.js';
import { isoFromTicks } from '../../functions/platform/clock.js';
import { itemOfImage, type StreamImage } from '../../functions/platform/dynamo/images.js';
import { type Job, parseJob } from '../../functions/services/jobs/jobs.js';
import { jobsOfRecord } from '../../functions/services/jobs/outbox-jobs.js';

type Item = Record<string, unknown>;
const ticks = BigInt(Date.UTC(2026, 10, 22)) * 1_000_000n + 123_456n;

/** An original as posting stores it, with TIMELINE_TTL on (so it carries an expiresAt). */
const original = Object.fromEntries(
  Object.entries(
    timelineItem(
      'alice',
      { verb: 'post', object: 'photo:1', content: 'hi', attributes: { score: 7, big: 12345678901, label: 'x', ok: true }, foreignId: 'f-1' },
      ticks,
      newDiscriminator(),
      isoFromTicks(ticks),
      1_900_000_000,
    ),
  ).filter(([, v]) => v !== undefined),
) as Item & { pk: string; rk: bigint };

const image = (item: Item) => marshall(item, { removeUndefinedValues: true }) as StreamImage;

function streamRecord(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', item: Item, old?: Item, ttl = false): DynamoDBRecord {
  return {
    eventID: 'e1',
    eventName,
    dynamodb: {
      Keys: image({ pk: item.pk, rk: item.rk }),
      ...(eventName === 'REMOVE' ? {} : { NewImage: image(item) }),
      ...(eventName === 'INSERT' ? {} : { OldImage: image(old ?? item) }),
      SequenceNumber: '1',
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    ...(ttl ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
  };
}

const marked = { ...original, deletedAt: '2026-11-22T00:00:01.000Z', expiresAt: 1_800_000_000 };

describe('outbox: stream record → job', () => {
  it('turns the INSERT of a timeline original into a fanout job carrying the post without pk and expiresAt', () => {
    const [job] = jobsOfRecord(streamRecord('INSERT', original));
    expect(job).toMatchObject({ kind: 'fanout', author: 'alice', rk: String(original.rk) });
    const img = (job as Extract<Job, { kind: 'fanout' }>).image;
    expect(img.pk).toBeUndefined();
    expect(img.expiresAt).toBeUndefined(); // a copy gets the home-feed TTL, never the timeline's
    expect(img.author).toBeUndefined();
    expect(img.verb).toEqual({ S: 'post' });
    expect(img.rk).toEqual({ N: String(original.rk) });
    expect(parseJob(JSON.stringify(job))).toEqual(job); // survives the queue
  });

  it('carries everything a copy needs: the copy written from the job equals the copy of the original', () => {
    const job = parseJob(JSON.stringify(jobsOfRecord(streamRecord('INSERT', original))[0])) as Extract<Job, { kind: 'fanout' }>;
    // What services/fanout/author-fanout.ts does with it.
    const source = { ...itemOfImage(job.image as StreamImage), rk: BigInt(job.rk) };
    const fromJob = copyOf(source, 'bob', 1_700_000_000);
    const direct = copyOf(original, 'bob', 1_700_000_000);
    expect(fromJob.pk).toBe('f#bob');
    expect(fromJob.expiresAt).toBe(1_700_000_000);
    expect(toActivity(fromJob)).toEqual(toActivity(direct));
    expect(toActivity(fromJob).attributes).toEqual({ score: 7, big: 12345678901, label: 'x', ok: true });
  });

  it('turns a DELETE mark (MODIFY gaining deletedAt) into a retract of that post', () => {
    expect(jobsOfRecord(streamRecord('MODIFY', marked, original))).toEqual([
      { kind: 'retract', author: 'alice', rk: String(original.rk) },
      { kind: 'purge', author: 'alice', rk: String(original.rk) },
    ]);
  });

  it('ignores home-feed copies and heads, whatever happens to them', () => {
    const copy = copyOf(original, 'bob', 1_700_000_000);
    expect(jobsOfRecord(streamRecord('INSERT', copy))).toEqual([]);
    expect(jobsOfRecord(streamRecord('INSERT', copyOf(original, 'alice', undefined)))).toEqual([]); // the author's own copy
    expect(jobsOfRecord(streamRecord('MODIFY', { ...copy, deletedAt: 'x' }, copy))).toEqual([]);
    expect(jobsOfRecord(streamRecord('REMOVE', copy))).toEqual([]); // trims, retracts, TTL
    const head = { ...feedHeadKey('bob'), pulled: new Set(['celeb']) };
    expect(jobsOfRecord(streamRecord('INSERT', head))).toEqual([]);
    expect(jobsOfRecord(streamRecord('MODIFY', { ...head, boundary: 5n }, head))).toEqual([]);
  });

  it('ignores every REMOVE of an original and every other modification', () => {
    expect(jobsOfRecord(streamRecord('REMOVE', original))).toEqual([]);
    expect(jobsOfRecord(streamRecord('REMOVE', marked, undefined, true))).toEqual([]); // the tombstone's TTL
    expect(jobsOfRecord(streamRecord('MODIFY', { ...original, content: 'edited' }, original))).toEqual([]);
    expect(jobsOfRecord(streamRecord('MODIFY', marked, marked))).toEqual([]); // already marked: no second retract
    expect(jobsOfRecord(streamRecord('MODIFY', original, marked))).toEqual([]);
  });

  it('ignores items outside timelines and home feeds (e.g. v1 data)', () => {
    const { pk: _pk, ...rest } = original;
    expect(jobsOfRecord(streamRecord('INSERT', { ...rest, pk: 'alice' }))).toEqual([]);
  });
});

describe('jobs', () => {
  it('round-trips every kind through the queue', () => {
    const jobs: Job[] = [
      { kind: 'retract', author: 'a', rk: '123', cursor: 'c' },
      { kind: 'backfill', follower: 'a', followee: 'b' },
      { kind: 'cleanup', follower: 'a', followee: 'b' },
      { kind: 'pull', author: 'a' },
      { kind: 'unpull', author: 'a', cursor: 'c' },
    ];
    for (const job of jobs) expect(parseJob(JSON.stringify(job))).toEqual(job);
  });

  it('rejects malformed jobs with InvalidJobError (they go to the DLQ, never silently dropped)', () => {
    const invalid = expect.objectContaining({ name: 'InvalidJobError' });
    expect(() => parseJob('not json')).toThrow(invalid);
    expect(() => parseJob('{"kind":"fanout","author":"a"}')).toThrow(invalid);
    expect(() => parseJob('{"kind":"fanout","author":"a","rk":"1","image":{"verb":{"S":"p"}}}')).toThrow(invalid); // image needs rk
    expect(() => parseJob('{"kind":"retract","author":"a","rk":"12x"}')).toThrow(invalid);
    expect(() => parseJob('{"kind":"retract","author":"","rk":"12"}')).toThrow(invalid);
    expect(() => parseJob('{"kind":"explode","author":"a"}')).toThrow(invalid);
  });
});
