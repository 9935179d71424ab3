/**
 * The activity as stored (a feed item) and as sent (the wire shape). Pure: no I/O.
 *
 * Stored item: `pk, rk, id, actor, verb, object?, content?, attributes?, foreignId?, time,
 * expiresAt?` plus `author` on the original only (sparse `byAuthor` index) and `deletedAt` once
 * a DELETE has marked it (the fan-out worker retracts copies, then removes it).
 */
import { activityIdOf, feedItemKey, rangeKeyOf } from '../keys.js';
import { isoFromTicks } from '../ticks.js';
import type { PostActivityBody } from './schemas.js';

export type AttributeValue = number | string | boolean;

export interface Activity {
  id: string;
  actor: string;
  verb: string;
  object: string | null;
  content: string | null;
  attributes: Record<string, AttributeValue> | null;
  foreignId: string | null;
  time: string;
  rangeKey: string;
}

/** A feed item as written (bigint rk; numbers plain). */
export interface NewFeedItem {
  pk: string;
  rk: bigint;
  id: string;
  actor: string;
  verb: string;
  object?: string;
  content?: string;
  attributes?: Record<string, AttributeValue>;
  foreignId?: string;
  time: string;
  author: string;
  expiresAt?: number;
}

/** The author's original for a validated post at `ticks` with a fresh `discriminator`. */
export function originalItem(
  actor: string,
  body: PostActivityBody,
  ticks: bigint,
  discriminator: bigint,
  expiresAt: number | undefined,
): NewFeedItem {
  const rk = rangeKeyOf(ticks, discriminator);
  return {
    ...feedItemKey(actor, rk),
    id: activityIdOf(actor, rk),
    actor,
    verb: body.verb,
    object: body.object,
    content: body.content,
    attributes: body.attributes,
    foreignId: body.foreignId,
    time: isoFromTicks(ticks),
    author: actor,
    expiresAt,
  };
}

/** Numbers read with `wrapNumbers` arrive as NumberValue (a string inside). */
const num = (v: unknown): number => Number(String(v));
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Wire shape of a stored (or just written) item. Absent optional fields are `null`. */
export function toActivity(item: Record<string, unknown>): Activity {
  const attrs = item.attributes as Record<string, unknown> | undefined;
  return {
    id: String(item.id),
    actor: String(item.actor),
    verb: String(item.verb),
    object: str(item.object),
    content: str(item.content),
    attributes: attrs
      ? Object.fromEntries(
          Object.entries(attrs).map(([k, v]) => [k, typeof v === 'string' || typeof v === 'boolean' ? v : num(v)]),
        )
      : null,
    foreignId: str(item.foreignId),
    time: String(item.time),
    rangeKey: String(item.rk),
  };
}

/**
 * An original is visible unless DELETE marked it or it is past its TTL (DynamoDB deletes expired
 * items lazily, so reads must hide them themselves).
 */
export function isVisibleOriginal(item: Record<string, unknown> | undefined, nowSeconds: number): boolean {
  if (!item || item.author === undefined || item.deletedAt !== undefined) return false;
  return item.expiresAt === undefined || num(item.expiresAt) > nowSeconds;
}
