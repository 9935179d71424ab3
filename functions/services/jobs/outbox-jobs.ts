/**
 * The feed table's stream is the outbox: once an item is in the table its stream record exists,
 * so "the write succeeded but the job was never enqueued" cannot happen — a crash before the
 * enqueue just means the stream delivers the record again.
 *
 *   INSERT of an original (a `t#` timeline item)       → fanout job, a tagFanout job per tag
 *                                                        (services/tags/), and notify jobs for
 *                                                        its mentions and `to` targets
 *   MODIFY of an original that gains `deletedAt`       → retract job (copies), a tagRetract job
 *                                                        per tag, and purge job (reactions,
 *                                                        comments, notifications)
 *   MODIFY of a live original whose version moved      → edit job (its copies: edits/copies.ts),
 *     (an edit)                                          tag jobs (tags/retag-jobs.ts: a tag left,
 *                                                        joined or kept), notify jobs
 *                                                        (edits/notices.ts)
 *   INSERT/MODIFY of a counter (`x#`) carrying `ev`    → notify job for the activity's author
 *   everything else → nothing: home-feed copies and heads (`f#`), tag-feed entries (`g#`), comments (`c#`), trims and TTL
 *   removals, a reaction's removal (it clears `ev`), the tombstone's own expiry
 */
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { activityOfCounterPk, parseCounterEvent } from '../../model/reaction.js';
import { tagKeysOf } from '../../model/tags.js';
import { authorOfTimelinePk } from '../../model/timeline-item.js';
import { editMentionDeliveries, notifyJobs, postDeliveries, reactionDelivery } from '../notifications/events.js';
import { ticksFromIso } from '../../platform/clock.js';
import { MAX_JOB_EVENTS, type WireNotificationEvent } from '../notifications/notify-job.js';
import { retagJobs } from '../tags/retag-jobs.js';
import type { Job } from './jobs.js';

const stringsOf = (v: AttributeValue | undefined): string[] | undefined =>
  v?.L ? v.L.flatMap((x) => (x.S === undefined ? [] : [x.S])) : v?.SS ? [...v.SS] : undefined;

export function jobsOfRecord(record: DynamoDBRecord): Job[] {
  const d = record.dynamodb;
  const image = d?.NewImage;
  const pk = image?.pk?.S;
  const rk = image?.rk?.N;
  if (!image || !pk || !rk) return [];

  const counter = activityOfCounterPk(pk);
  if (counter && (record.eventName === 'INSERT' || record.eventName === 'MODIFY')) {
    const ev = parseCounterEvent(image.ev?.S);
    if (!ev || ev.actor === counter.author || image.ev?.S === d?.OldImage?.ev?.S) return [];
    return notifyJobs([reactionDelivery(counter.id, counter.author, ev)]);
  }

  const author = authorOfTimelinePk(pk);
  if (!author) return [];
  if (record.eventName === 'INSERT') {
    const { pk: _pk, expiresAt: _e, ...rest } = image;
    const post = {
      author,
      rk: BigInt(rk),
      verb: image.verb?.S ?? '',
      object: image.object?.S,
      content: image.content?.S,
      to: stringsOf(image.to),
    };
    const tagged = tagKeysOf(stringsOf(image.tags)).map((tag): Job => ({ kind: 'tagFanout', author, rk, tag, image: rest }));
    return [{ kind: 'fanout', author, rk, image: rest }, ...tagged, ...notifyJobs(postDeliveries(post))];
  }
  if (record.eventName === 'MODIFY' && image.deletedAt && !d?.OldImage?.deletedAt) {
    return [
      { kind: 'retract', author, rk },
      ...tagKeysOf(stringsOf(image.tags)).map((tag): Job => ({ kind: 'tagRetract', author, rk, tag })),
      { kind: 'purge', author, rk },
    ];
  }
  const version = image.version?.N;
  if (record.eventName === 'MODIFY' && !image.deletedAt && version !== undefined && version !== d?.OldImage?.version?.N) {
    const editedTicks = ticksFromIso(image.editedAt?.S ?? '') ?? 0n;
    const mentions = editMentionDeliveries({ author, rk: BigInt(rk), before: d?.OldImage?.content?.S, after: image.content?.S, editedTicks });
    const { pk: _pk, expiresAt: _e, ...rest } = image;
    const edit = { author, rk, version: Number(version) };
    const retag = retagJobs(edit, rest, stringsOf(d?.OldImage?.tags) ?? [], stringsOf(image.tags) ?? []);
    return [{ kind: 'edit', ...edit }, ...retag, ...notifyJobs(mentions)];
  }
  return [];
}

/**
 * The jobs of a whole stream batch: each record's, with the notify jobs of one recipient merged
 * (≤ MAX_JOB_EVENTS events each) — 50 likes of one post in a batch become one job, not 50 racing
 * for the same group. Each job carries the lowest sequence number it came from: reporting that one
 * as failed makes Lambda redeliver from it (the redelivered jobs are idempotent).
 */
export function jobsOfBatch(records: readonly DynamoDBRecord[]): { job: Job; seq: string }[] {
  const out: { job: Job; seq: string }[] = [];
  const notify = new Map<string, { events: WireNotificationEvent[]; seq: string }>();
  for (const record of records) {
    const seq = record.dynamodb!.SequenceNumber!;
    for (const job of jobsOfRecord(record)) {
      if (job.kind !== 'notify') {
        out.push({ job, seq });
        continue;
      }
      const pending = notify.get(job.recipient);
      if (pending) pending.events.push(...job.events);
      else notify.set(job.recipient, { events: [...job.events], seq });
    }
  }
  for (const [recipient, { events, seq }] of notify) {
    for (let i = 0; i < events.length; i += MAX_JOB_EVENTS) {
      out.push({ job: { kind: 'notify', recipient, events: events.slice(i, i + MAX_JOB_EVENTS) }, seq });
    }
  }
  return out;
}
