/**
 * A post the stream held past FANOUT_LATE_AFTER (services/jobs/outbox-jobs.ts isLate): the outbox
 * marks its fan-out jobs `late`, and the bus sends them, pages and all, to the fanout lane's backlog
 * (jobs.ts laneOfJob), so the fanout queue keeps to fresh posts. Only fan-out kinds are marked; the
 * record's time (whole seconds) against the caller's deadline decides, not the post's own time.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { newDiscriminator } from '../../functions/model/range-key.js';
import { timelineItem } from '../../functions/model/timeline-item.js';
import { isoFromTicks } from '../../functions/platform/clock.js';
import { laneOfJob, parseJob } from '../../functions/services/jobs/jobs.js';
import { jobsOfBatch } from '../../functions/services/jobs/outbox-jobs.js';

const WRITTEN_S = 1_800_000_000;
const ticks = BigInt(WRITTEN_S) * 1_000_000_000n;
const image = (item: object) => marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];

/** A tagged post with a mention, as its INSERT record, written at WRITTEN_S; or its edit (MODIFY, version 2). */
function postRecord(seq: string, edit = false): DynamoDBRecord {
  const post = timelineItem(
    'alice',
    { verb: 'post', content: 'hi @bob #news #cats', tags: ['news', 'cats'] },
    ticks,
    newDiscriminator(),
    isoFromTicks(ticks),
    undefined,
  );
  const edited = { ...post, content: 'hi @bob @carol #news', tags: ['news'], version: 2, editedAt: isoFromTicks(ticks) };
  return {
    eventName: edit ? 'MODIFY' : 'INSERT',
    dynamodb: {
      NewImage: image(edit ? edited : post),
      ...(edit ? { OldImage: image(post) } : {}),
      SequenceNumber: seq,
      ApproximateCreationDateTime: WRITTEN_S,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

const lanesOf = (jobs: ReturnType<typeof jobsOfBatch>) => jobs.map(({ job }) => `${job.kind}→${laneOfJob(job)}`);

describe('the outbox marks the fan-out of a post the stream held past the deadline', () => {
  it('a post read in time: every job on its own lane, none marked', () => {
    const jobs = jobsOfBatch([postRecord('1')], WRITTEN_S * 1000 - 1);
    expect(jobs.every(({ job }) => !('late' in job))).toBe(true);
    expect(lanesOf(jobs)).toEqual(['fanout→fanout', 'tagFanout→fanout', 'tagFanout→fanout', 'notify→notify']);
  });

  it('a post read late: its fan-outs (its own and its tags’) to the backlog, its notices to notify as ever', () => {
    const jobs = jobsOfBatch([postRecord('1')], WRITTEN_S * 1000);
    expect(lanesOf(jobs)).toEqual(['fanout→fanoutBacklog', 'tagFanout→fanoutBacklog', 'tagFanout→fanoutBacklog', 'notify→notify']);
    // The mark is part of the body a worker parses, so the job's further pages follow it (laneOfJob).
    for (const { job } of jobs.slice(0, 3)) {
      const parsed = parseJob(JSON.stringify(job));
      expect(parsed).toMatchObject({ late: true });
      expect(laneOfJob({ ...parsed, cursor: 'c1' })).toBe('fanoutBacklog');
    }
  });

  it('an edit read late: its copies’ jobs to the backlog; a tag it left (a retract) stays on followup', () => {
    const jobs = jobsOfBatch([postRecord('1', true)], WRITTEN_S * 1000 + 60_000);
    expect(lanesOf(jobs).sort()).toEqual(['edit→fanoutBacklog', 'notify→notify', 'tagEdit→fanoutBacklog', 'tagRetract→followup']);
  });

  it('marks nothing without a deadline (FANOUT_LATE_AFTER=off), nor a record without its time', () => {
    expect(lanesOf(jobsOfBatch([postRecord('1')]))).toEqual(['fanout→fanout', 'tagFanout→fanout', 'tagFanout→fanout', 'notify→notify']);
    const timeless = postRecord('2');
    delete timeless.dynamodb!.ApproximateCreationDateTime;
    expect(lanesOf(jobsOfBatch([timeless], Number.MAX_SAFE_INTEGER))[0]).toBe('fanout→fanout');
  });
});
