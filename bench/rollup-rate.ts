/**
 * Posts at a constant rate as the rollups consumer sees them: stream records of originals (verb
 * `post` with a `score`) arriving at the rate, by Zipf-drawn actors (a few post a lot, most
 * rarely). And their pricing-rule minimum: whatever writes per-minute rollups and per-hour
 * activity counts once per tumbling window writes at least one item per (series, minute) and per
 * (actor, bucket) each window touches.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { timelineItem } from '../functions/model/timeline-item.js';
import { isoFromTicks } from '../functions/platform/clock.js';
import { readConfig, readWindowConfig } from '../lib/defs/config.js';
import { countSeries } from '../lib/defs/rollup-spec.js';
import { windowStartMs } from '../lib/defs/stream-window.js';
import { seededRandom, zipf } from './workload/random.js';

export interface RatedPost {
  readonly record: DynamoDBRecord;
  /** Epoch seconds of its arrival, which is also its activity time. */
  readonly arrival: number;
  readonly actor: string;
}

/** `perSecond × seconds` posts by `users` actors (`actorOf(i)`), arriving from `startSeconds` on. */
export function ratedPosts(opts: {
  perSecond: number;
  seconds: number;
  users: number;
  startSeconds: number;
  actorOf: (i: number) => string;
  streamArn: string;
  firstSeq: bigint;
}): RatedPost[] {
  const pick = zipf(opts.users, seededRandom(19));
  return Array.from({ length: Math.round(opts.perSecond * opts.seconds) }, (_, i) => {
    const arrival = opts.startSeconds + i / opts.perSecond;
    const actor = opts.actorOf(pick());
    const ticks = BigInt(Math.floor(arrival * 1000)) * 1_000_000n + BigInt(i % 1_000_000);
    const item = timelineItem(actor, { verb: 'post', attributes: { score: i % 100 } }, ticks, BigInt(i), isoFromTicks(ticks), undefined);
    const image = marshall(item, { removeUndefinedValues: true }) as NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;
    const record: DynamoDBRecord = {
      eventID: `rate-${opts.firstSeq}-${i}`,
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: opts.streamArn,
      dynamodb: {
        ApproximateCreationDateTime: Math.floor(arrival),
        Keys: { pk: image.pk!, rk: image.rk! },
        NewImage: image,
        SequenceNumber: (opts.firstSeq + BigInt(i)).toString(),
        SizeBytes: 300,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
    };
    return { record, arrival, actor };
  });
}

/** The posts grouped by tumbling window, in arrival order. */
export function byWindow(posts: readonly RatedPost[], windowSeconds: number): RatedPost[][] {
  const out: RatedPost[][] = [];
  let start: number | undefined;
  for (const p of posts) {
    const s = windowStartMs(Math.floor(p.arrival), windowSeconds);
    if (s !== start) out.push([]);
    start = s;
    out.at(-1)!.push(p);
  }
  return out;
}

/**
 * Items any once-per-window writer must write for these windows: one per (series, minute) — the
 * verb's count and each configured rollup of `score` — and one per (actor, activity bucket). Each
 * is well under 1 KB: 1 WCU apiece by the pricing rules.
 */
export function minimumItems(windows: readonly (readonly RatedPost[])[]): number {
  const spec = readConfig('ROLLUPS');
  const bucketMs = readWindowConfig().bucketMs;
  const series = [countSeries('post'), ...(spec.byEventType.get('post') ?? []).filter((e) => e.attribute === 'score').map((e) => e.name)];
  let items = 0;
  for (const w of windows) {
    const minutes = new Set(w.map((p) => Math.floor((p.arrival * 1000) / 60_000)));
    const actorBuckets = new Set(w.map((p) => `${p.actor}|${Math.floor((p.arrival * 1000) / bucketMs)}`));
    items += minutes.size * series.length + actorBuckets.size;
  }
  return items;
}
