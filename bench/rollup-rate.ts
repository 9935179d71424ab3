/**
 * Posts at a constant rate, as the rollups consumer sees them: Lambda-shaped stream records of
 * originals (verb `post` with a `score`) whose arrival times are spaced at the rate, by actors
 * drawn from a power law (a few post a lot, most rarely). Also the pricing-rule minimum for them:
 * whatever writes per-minute rollups and per-hour activity counts once per tumbling window must
 * write at least one item per (series, minute) and per (actor, bucket) the window touches.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { timelineItem } from '../functions/model/timeline-item.js';
import { isoFromTicks } from '../functions/platform/clock.js';
import { readConfig, readWindowConfig } from '../lib/defs/config.js';
import { countSeries } from '../lib/defs/rollup-spec.js';
import { windowStartMs } from '../lib/defs/stream-window.js';

export interface RatedPosts {
  readonly records: DynamoDBRecord[];
  /** Epoch seconds of each record's arrival (its ApproximateCreationDateTime). */
  readonly arrivals: number[];
  readonly actors: string[];
}

/** A deterministic generator (the same posts every run). */
function lcg(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** Index of a Zipf(1) draw over `n` ranks. */
function zipf(n: number, random: () => number): () => number {
  const cdf: number[] = [];
  let sum = 0;
  for (let i = 1; i <= n; i++) cdf.push((sum += 1 / i));
  return () => {
    const r = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * `perSecond × seconds` posts by `users` actors (`actorOf(i)`), arriving from `startSeconds` on;
 * each post's activity time is its arrival.
 */
export function ratedPosts(opts: {
  perSecond: number;
  seconds: number;
  users: number;
  startSeconds: number;
  actorOf: (i: number) => string;
  streamArn: string;
  firstSeq: bigint;
}): RatedPosts {
  const random = lcg(19);
  const pick = zipf(opts.users, random);
  const records: DynamoDBRecord[] = [];
  const arrivals: number[] = [];
  const actors: string[] = [];
  const n = Math.round(opts.perSecond * opts.seconds);
  for (let i = 0; i < n; i++) {
    const arrival = opts.startSeconds + i / opts.perSecond;
    const actor = opts.actorOf(pick());
    const ticks = BigInt(Math.floor(arrival * 1000)) * 1_000_000n + BigInt(i % 1_000_000);
    const item = timelineItem(actor, { verb: 'post', attributes: { score: i % 100 } }, ticks, BigInt(i), isoFromTicks(ticks), undefined);
    const image = marshall(item, { removeUndefinedValues: true }) as NonNullable<NonNullable<DynamoDBRecord['dynamodb']>['NewImage']>;
    records.push({
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
    });
    arrivals.push(arrival);
    actors.push(actor);
  }
  return { records, arrivals, actors };
}

/** The posts grouped by tumbling window (in arrival order). */
export function byWindow(posts: RatedPosts, windowSeconds: number): { startMs: number; records: DynamoDBRecord[]; actors: string[]; arrivals: number[] }[] {
  const out: ReturnType<typeof byWindow> = [];
  posts.records.forEach((record, i) => {
    const startMs = windowStartMs(Math.floor(posts.arrivals[i]!), windowSeconds);
    if (out.at(-1)?.startMs !== startMs) out.push({ startMs, records: [], actors: [], arrivals: [] });
    const w = out.at(-1)!;
    w.records.push(record);
    w.actors.push(posts.actors[i]!);
    w.arrivals.push(posts.arrivals[i]!);
  });
  return out;
}

/**
 * Items any once-per-window writer must write for these windows: one per (series, minute) — the
 * verb's count and each configured rollup of `score` — and one per (actor, activity bucket). Each
 * is well under 1 KB: 1 WCU apiece by the pricing rules.
 */
export function minimumItems(windows: ReturnType<typeof byWindow>): number {
  const spec = readConfig('ROLLUPS');
  const bucketMs = readWindowConfig().bucketMs;
  const series = [countSeries('post'), ...(spec.byEventType.get('post') ?? []).filter((e) => e.attribute === 'score').map((e) => e.name)];
  let items = 0;
  for (const w of windows) {
    const minutes = new Set(w.arrivals.map((a) => Math.floor((a * 1000) / 60_000)));
    const actorBuckets = new Set(w.actors.map((actor, i) => `${actor}|${Math.floor((w.arrivals[i]! * 1000) / bucketMs)}`));
    items += minutes.size * series.length + actorBuckets.size;
  }
  return items;
}
