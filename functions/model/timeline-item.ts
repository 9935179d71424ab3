/**
 * A timeline item: an author's original post, in their own partition `t#<author>` of the feed
 * table. What the author owns: no home-feed retention reaches it; it stays until DELETE (or an
 * operator's TIMELINE_TTL). Its stream INSERT starts the fan-out and counts in the rollups.
 *
 * Stored: `pk, rk, id, actor, verb, object?, content?, attributes?, foreignId?, to?, tags?, time, expiresAt?`,
 * once edited `version` (absent = 1) and `editedAt` (services/edits/), and, once DELETE marked it, `deletedAt` — the tombstone stays (hidden) for TOMBSTONE_SECONDS,
 * so a backfill, cleanup or unpull running late still sees the post was deleted.
 */
import { feedPartitionPrefix } from '../../lib/defs/key-prefixes.js';
import { activityIdOf } from './activity-id.js';
import type { ActivityInput } from './activity.js';
import { rangeKeyOf } from './range-key.js';

const PREFIX = feedPartitionPrefix.timeline;

export const timelinePartition = (author: string) => `${PREFIX}${author}`;
export const timelineKey = (author: string, rk: bigint) => ({ pk: timelinePartition(author), rk });

/** The author whose timeline partition `pk` is, or undefined for any other partition. */
export const authorOfTimelinePk = (pk: string | undefined): string | undefined => (pk?.startsWith(PREFIX) ? pk.slice(PREFIX.length) : undefined);

/** How long a deleted original's tombstone stays (hidden) before TTL removes it. */
export const TOMBSTONE_SECONDS = 2 * 86_400;

/** A stored timeline item (bigint rk; numbers plain). */
export type TimelineItem = {
  pk: string;
  rk: bigint;
  id: string;
  actor: string;
  verb: string;
  object?: string;
  content?: string;
  attributes?: ActivityInput['attributes'];
  foreignId?: string;
  to?: string[];
  /** The activity's tags as first written (the caller computed them: services/tags/post-tags.ts). */
  tags?: string[];
  time: string;
  expiresAt?: number;
  /** Absent until the first edit (version 1). */
  version?: number;
  editedAt?: string;
};

/**
 * The original of a validated post, positioned by the server's `ticks`; its own time is the
 * client's `time` if given, else `postedAt` (the ISO form of those ticks).
 */
export function timelineItem(
  actor: string,
  input: ActivityInput,
  ticks: bigint,
  discriminator: bigint,
  postedAt: string,
  expiresAt: number | undefined,
): TimelineItem {
  const rk = rangeKeyOf(ticks, discriminator);
  return {
    ...timelineKey(actor, rk),
    id: activityIdOf(actor, rk),
    actor,
    verb: input.verb,
    object: input.object,
    content: input.content,
    attributes: input.attributes,
    foreignId: input.foreignId,
    to: input.to && input.to.length ? [...new Set(input.to)] : undefined,
    tags: input.tags && input.tags.length ? [...input.tags] : undefined,
    time: input.time ?? postedAt,
    expiresAt,
  };
}

const num = (v: unknown): number => Number(String(v));

/** An original is visible unless DELETE marked it or it is past its TTL (TTL deletes lazily). */
export function isVisibleOriginal(item: Record<string, unknown> | undefined, nowSeconds: number): boolean {
  if (!item || authorOfTimelinePk(item.pk as string) === undefined || item.deletedAt !== undefined) return false;
  return item.expiresAt === undefined || num(item.expiresAt) > nowSeconds;
}

/** An original's (or a copy's) version: absent until the first edit, so 1. */
export const versionOf = (item: Record<string, unknown>): number => (item.version === undefined ? 1 : num(item.version));
