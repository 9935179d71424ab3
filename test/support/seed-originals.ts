/**
 * Activities the way posting stores them, built with the model: an ORIGINAL in the actor's
 * timeline (`t#actor`) and home-feed COPIES (`f#follower`). Written straight to the feed table,
 * they flow through the real stream and poller to the rollups handler, with a chosen activity
 * `time` (rollups count by it). `streamRecord` builds the Lambda record of such an item for
 * direct handler calls.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { copyOf } from '../../functions/model/feed-copy.js';
import { newDiscriminator } from '../../functions/model/range-key.js';
import { timelineItem } from '../../functions/model/timeline-item.js';
import { isoFromTicks } from '../../functions/platform/clock.js';
import { doc, stack } from './local.js';
import { writeItems } from './write-items.js';

export type AttributeScalar = number | string | boolean;

export interface ActivityInput {
  readonly actor: string;
  readonly verb: string;
  /** Epoch ms of the activity (its `time`); sub-ms digits are random. */
  readonly timeMs: number;
  readonly attributes?: Readonly<Record<string, AttributeScalar>>;
}

export type FeedItem = Record<string, unknown> & { pk: string; rk: bigint };

/**
 * The original as posting writes it, at time `timeMs` — positioned there too (posting positions
 * by the server's clock at the write; seeding history needs chosen positions).
 */
export function originalItem(a: ActivityInput): FeedItem {
  const ticks = BigInt(a.timeMs) * 1_000_000n + BigInt(randomInt(0, 1_000_000));
  const item = timelineItem(
    a.actor,
    { verb: a.verb, ...(a.attributes ? { attributes: { ...a.attributes } } : {}) },
    ticks,
    newDiscriminator(),
    isoFromTicks(ticks),
    undefined,
  );
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as FeedItem;
}

/** A home-feed copy of `original` in `follower`'s feed. */
export function copyItem(original: FeedItem, follower: string): FeedItem {
  return copyOf(original, follower, undefined) as FeedItem;
}

/** Put items into the shared stack's feed table (support/write-items.ts). */
export const writeFeedItems = (items: readonly FeedItem[]): Promise<void> => writeItems(doc, stack.tableNames.feed, items);

export const seedOriginals = (activities: readonly ActivityInput[]) => writeFeedItems(activities.map(originalItem));

// ---- Lambda stream records, for calling the handler directly ---------------------------------

function toAttr(value: unknown): AttributeValue {
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number' || typeof value === 'bigint') return { N: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (value && typeof value === 'object') {
    return { M: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toAttr(v)])) };
  }
  throw new Error(`cannot marshal ${String(value)}`);
}
const image = (item: FeedItem) => toAttr(item).M!;

let seq = 10n ** 20n;
/**
 * A record as Lambda delivers it. Sequence numbers increase per call; eventIDs are fresh unless
 * given. `ttl` makes a REMOVE look like a TTL deletion (as the local poller shapes them);
 * `rawTtl` keeps DynamoDB Local's own event name instead.
 */
export function streamRecord(kind: 'INSERT' | 'MODIFY' | 'REMOVE' | 'TTL' | 'UNKNOWN_TO_SDK_VERSION', item: FeedItem, old?: FeedItem): DynamoDBRecord {
  seq += 1n;
  const eventName = kind === 'TTL' ? 'REMOVE' : kind;
  return {
    eventID: randomUUID().replaceAll('-', ''),
    eventName: eventName as DynamoDBRecord['eventName'],
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/test/stream/x',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: { pk: { S: item.pk }, rk: { N: String(item.rk) } },
      ...(kind === 'INSERT' || kind === 'MODIFY' ? { NewImage: image(item) } : {}),
      ...(kind === 'MODIFY' ? { OldImage: image(old ?? item) } : {}),
      ...(kind !== 'INSERT' && kind !== 'MODIFY' ? { OldImage: image(item) } : {}),
      SequenceNumber: seq.toString().padStart(21, '0'),
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    ...(kind === 'TTL' ? { userIdentity: { type: 'Service', principalId: 'dynamodb.amazonaws.com' } } : {}),
  };
}
