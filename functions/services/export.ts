/**
 * GET /me/export: everything tickfeed holds about the caller, in parts. A part walks the sections
 * in order — activities, following, followers, reactions, comments, notifications, mutes, blocks,
 * followed tags —
 * a page at a time until it holds about PART_BYTES of JSON; `next` names the section and key where
 * the next part starts (null on the last). The profile and the activity window come with the first
 * part. Parts stay far below API Gateway's 10 MB and Lambda's 6 MB response limits.
 */
import { setting, windowSetting } from '../../lib/defs/config.js';
import { toComment } from '../model/comment.js';
import { encodeCursor } from '../model/cursor.js';
import { isFollowListSortKey } from '../model/follow-lists.js';
import { isOrderSk, toNotificationGroup } from '../model/notification.js';
import { controlEntry, isControlTarget } from '../model/user-controls.js';
import { isLedgerKey, parseLedgerEntry } from '../model/user-ledger.js';
import { parseRangeKey } from '../model/range-key.js';
import type { Page } from '../platform/dynamo/query.js';
import { isNormalTag } from '../model/tags.js';
import { controlPage } from '../stores/controls-store.js';
import { listPage } from '../stores/follow-store.js';
import { tagFollowsPage } from '../stores/tag-store.js';
import { groupPage } from '../stores/notification-store.js';
import { getComments, ledgerPage } from '../stores/social-store.js';
import { readTimeline } from './feed-reading.js';
import { afterCursor } from './list-page.js';
import { profileOf } from './follow-graph.js';
import { readActivityWindow } from './rollups/windows.js';

/** JSON bytes a part aims at (a page may overshoot it by one page). */
export const PART_BYTES = 1_000_000;
const PAGE = 100;

/** In part order; a new section goes last, so a cursor handed out before it still names the same section. */
const SECTIONS = ['activities', 'following', 'followers', 'reactions', 'comments', 'notifications', 'mutes', 'blocks', 'followedTags'] as const;
type Section = (typeof SECTIONS)[number];

interface Position {
  s: number;
  k?: string;
}

type SectionPage = Page<unknown, string>;

/**
 * Each section's reader, and which keys its `last` can be (the model's predicate of the list's
 * key): a cursor whose key another section — or nobody — made is refused.
 */
const sections: Record<Section, { read: (user: string, after?: string) => Promise<SectionPage>; isKey: (key: string) => boolean }> = {
  activities: {
    read: async (user, after) => {
      const page = await readTimeline(user, { limit: PAGE, before: after === undefined ? undefined : parseRangeKey(after) });
      return page;
    },
    isKey: (k) => parseRangeKey(k) !== undefined,
  },
  following: { read: (user, after) => followList('following', user, after), isKey: isFollowListSortKey },
  followers: { read: (user, after) => followList('followers', user, after), isKey: isFollowListSortKey },
  reactions: {
    read: async (user, after) => {
      const page = await ledgerPage(user, 'reaction', PAGE, after);
      const items = page.items.flatMap((i) => {
        const e = parseLedgerEntry(i);
        return e?.kind === 'reaction' && e.kinds.length ? [{ activityId: e.activityId, kinds: e.kinds }] : [];
      });
      return { items, last: page.last };
    },
    isKey: (k) => isLedgerKey('reaction', k),
  },
  comments: {
    read: async (user, after) => {
      const page = await ledgerPage(user, 'comment', PAGE, after);
      const keys = page.items.flatMap((i) => {
        const e = parseLedgerEntry(i);
        return e?.kind === 'comment' ? [{ activityId: e.activityId, rk: e.rk }] : [];
      });
      const stored = await getComments(keys);
      return { items: stored.map((c) => ({ activityId: String(c.activityId), ...toComment(c) })), last: page.last };
    },
    isKey: (k) => isLedgerKey('comment', k),
  },
  notifications: {
    read: async (user, after) => {
      const page = await groupPage(user, 0n, PAGE, after);
      return { items: page.items.map(toNotificationGroup), last: page.last };
    },
    isKey: isOrderSk,
  },
  mutes: { read: (user, after) => controls('mute', user, after), isKey: isControlTarget },
  blocks: { read: (user, after) => controls('block', user, after), isKey: isControlTarget },
  followedTags: {
    read: async (user, after) => {
      const page = await tagFollowsPage(user, PAGE, after);
      return { items: page.items.map((f) => ({ tag: f.tag })), last: page.last };
    },
    isKey: isNormalTag,
  },
};

async function followList(which: 'following' | 'followers', user: string, after?: string): Promise<SectionPage> {
  const page = await listPage(which, user, PAGE, after);
  return { items: page.items.map((f) => ({ userId: f.userId })), last: page.last };
}

async function controls(kind: 'mute' | 'block', user: string, after?: string): Promise<SectionPage> {
  const page = await controlPage(kind, user, PAGE, after);
  return { items: page.items.map(controlEntry), last: page.last };
}

/** A part's cursor: model/cursor.ts's over the position (section index, key within it) as JSON. */
function isPositionKey(key: string): boolean {
  try {
    const p = JSON.parse(key) as Position;
    const section = Number.isInteger(p.s) && p.s >= 0 && p.s < SECTIONS.length ? SECTIONS[p.s]! : undefined;
    return section !== undefined && (p.k === undefined || (typeof p.k === 'string' && sections[section].isKey(p.k))) && JSON.stringify(p) === key;
  } catch {
    return false;
  }
}
const positionOf = (cursor: string): Position => JSON.parse(afterCursor(cursor, isPositionKey)!) as Position;

export type ExportPart = { userId: string; profile: unknown; activityWindow: unknown; next: string | null } & Record<Section, unknown[]>;

export async function exportUser(user: string, cursor?: string): Promise<ExportPart> {
  let pos: Position = cursor === undefined ? { s: 0 } : positionOf(cursor);
  const part = Object.fromEntries(SECTIONS.map((s) => [s, [] as unknown[]])) as Record<Section, unknown[]>;
  const first = cursor === undefined;
  const [profile, activityWindow] = first ? await Promise.all([profileOf(user), windowOf(user)]) : [null, null];
  let bytes = 0;
  while (pos.s < SECTIONS.length && bytes < PART_BYTES) {
    const section = SECTIONS[pos.s]!;
    const page = await sections[section].read(user, pos.k);
    part[section].push(...page.items);
    bytes += JSON.stringify(page.items).length;
    pos = page.last === undefined ? { s: pos.s + 1 } : { s: pos.s, k: page.last };
  }
  return { userId: user, profile, ...part, activityWindow, next: pos.s < SECTIONS.length ? encodeCursor(JSON.stringify(pos)) : null };
}

async function windowOf(user: string) {
  const { cfg, segments } = { cfg: windowSetting(), segments: setting('ACTIVITY_SEGMENTS') };
  return readActivityWindow(user, Date.now(), cfg.buckets, cfg, segments);
}
