/**
 * Activities as feed-table items and back. The ORIGINAL lives at pk = actor and carries `author`
 * (which puts it in the sparse `byAuthor` index); fan-out copies carry the same attributes minus
 * `author` at pk = follower, same rk. Attribute names are short but readable: an item is paid
 * once per feed it lands in.
 */
import { activityIdOf, feedItemKey, newDiscriminator, rangeKeyOf } from '../keys.js';
import { isoFromTicks, nowTicks, ticksFromIso } from '../ticks.js';
import type { ActivityView, PostActivityBody } from './schemas.js';

export type AttributeScalar = string | number | boolean;

export type FeedItem = {
  pk: string;
  rk: bigint;
  id: string;
  actor: string;
  verb: string;
  object?: string;
  content?: string;
  attributes?: Record<string, AttributeScalar>;
  foreignId?: string;
  /** RFC 3339 UTC with 9 fractional digits: the activity time, exactly the rk's ticks. */
  time: string;
  /** Only on originals. */
  author?: string;
};

/** The original item of a new post by `actor`. `ticks` defaults to the body's time, else now. */
export function originalItem(actor: string, body: PostActivityBody, ticks = ticksOf(body)): FeedItem {
  const rk = rangeKeyOf(ticks, newDiscriminator());
  return {
    ...feedItemKey(actor, rk),
    id: activityIdOf(actor, rk),
    actor,
    verb: body.verb,
    object: body.object,
    content: body.content,
    attributes: body.attributes && Object.keys(body.attributes).length ? body.attributes : undefined,
    foreignId: body.foreignId,
    time: isoFromTicks(ticks),
    author: actor,
  };
}

function ticksOf(body: PostActivityBody): bigint {
  if (body.time === undefined) return nowTicks();
  const ticks = ticksFromIso(body.time);
  // The schema already refused times outside the key range; this is the type's guard.
  if (ticks === undefined) throw new RangeError(`unparseable time ${body.time}`);
  return ticks;
}

/**
 * A stored item (read with `wrapNumbers`: Numbers arrive as `NumberValue`) as the API shows it.
 * Absent optional fields are `null` (attributes `{}`), so every activity has the same keys.
 */
export function viewOf(item: Record<string, unknown>): ActivityView {
  const attributes: Record<string, AttributeScalar> = {};
  for (const [k, v] of Object.entries((item.attributes ?? {}) as Record<string, unknown>)) {
    attributes[k] = typeof v === 'string' || typeof v === 'boolean' ? v : Number(String(v));
  }
  return {
    id: String(item.id),
    actor: String(item.actor),
    verb: String(item.verb),
    object: item.object === undefined ? null : String(item.object),
    content: item.content === undefined ? null : String(item.content),
    attributes,
    foreignId: item.foreignId === undefined ? null : String(item.foreignId),
    time: String(item.time),
    rangeKey: String(item.rk),
  };
}

/**
 * The item's size as DynamoDB bills it (names + values; numbers ≈ 1 byte per 2 significant
 * digits + 1; maps 3 bytes + 1 per element), for docs and tests. A write costs ceil(size/1 KB) WCU.
 */
export function itemSizeBytes(item: object): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    if (value === undefined) continue;
    size += Buffer.byteLength(name, 'utf8') + valueSize(value);
  }
  return size;
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (typeof value === 'boolean' || value === null) return 1;
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits = String(value).replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
    return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
  }
  if (typeof value === 'object') {
    let size = 3;
    for (const [k, v] of Object.entries(value)) size += Buffer.byteLength(k, 'utf8') + valueSize(v) + 1;
    return size;
  }
  return 0;
}
