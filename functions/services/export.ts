/**
 * GET /me/export: everything tickfeed holds about the caller, in parts. A part walks the sections
 * in order — activities, following, followers, reactions, comments, notifications, mutes, blocks —
 * a page at a time until it holds about PART_BYTES of JSON; `next` names the section and key where
 * the next part starts (null on the last). The profile and the activity window come with the first
 * part. Parts stay far below API Gateway's 10 MB and Lambda's 6 MB response limits.
 */
import { setting, windowSetting } from '../../lib/defs/config.js';
import type { Activity } from '../model/activity.js';
import { toComment } from '../model/comment.js';
import { invalidCursor } from '../model/errors.js';
import { ORDER_PREFIX, orderSkOfCursor, parseGroup, toNotificationGroup } from '../model/notification.js';
import { controlEntry } from '../model/user-controls.js';
import { isLedgerKey, parseLedgerEntry } from '../model/user-ledger.js';
import { parseRangeKey } from '../model/range-key.js';
import { controlPage } from '../stores/controls-store.js';
import { listPage } from '../stores/graph-store.js';
import { groupPage } from '../stores/notification-store.js';
import { getComments, ledgerPage } from '../stores/social-store.js';
import { readTimeline } from './feed-reading.js';
import { profileOf } from './following.js';
import { readActivityWindow } from './rollups/windows.js';

/** JSON bytes a part aims at (a page may overshoot it by one page). */
export const PART_BYTES = 1_000_000;
const PAGE = 100;

const SECTIONS = ['activities', 'following', 'followers', 'reactions', 'comments', 'notifications', 'mutes', 'blocks'] as const;
type Section = (typeof SECTIONS)[number];

interface Position {
  s: number;
  k?: string;
}

type SectionPage = { items: unknown[]; next?: string };

const readers: Record<Section, (user: string, after?: string) => Promise<SectionPage>> = {
  activities: async (user, after) => {
    const page = await readTimeline(user, { limit: PAGE, before: after === undefined ? undefined : parseRangeKey(after) });
    return { items: page.items as Activity[], next: page.lastRangeKey ?? undefined };
  },
  following: (user, after) => followList('following', user, after),
  followers: (user, after) => followList('followers', user, after),
  reactions: async (user, after) => {
    const page = await ledgerPage(user, 'reaction', PAGE, after);
    const items = page.items.flatMap((i) => {
      const e = parseLedgerEntry(i);
      return e?.kind === 'reaction' && e.kinds.length ? [{ activityId: e.activityId, kinds: e.kinds }] : [];
    });
    return { items, next: page.last };
  },
  comments: async (user, after) => {
    const page = await ledgerPage(user, 'comment', PAGE, after);
    const keys = page.items.flatMap((i) => {
      const e = parseLedgerEntry(i);
      return e?.kind === 'comment' ? [{ activityId: e.activityId, rk: e.rk }] : [];
    });
    const stored = await getComments(keys);
    return { items: stored.map((c) => ({ activityId: String(c.activityId), ...toComment(c) })), next: page.last };
  },
  notifications: async (user, after) => {
    const page = await groupPage(user, 0n, PAGE, after);
    const items = page.items.flatMap((i) => {
      const g = parseGroup(i);
      return g ? [toNotificationGroup(g)] : [];
    });
    const last = page.items.at(-1);
    return { items, next: page.more && last ? String(last.sk) : undefined };
  },
  mutes: (user, after) => controls('mute', user, after),
  blocks: (user, after) => controls('block', user, after),
};

async function followList(which: 'following' | 'followers', user: string, after?: string): Promise<SectionPage> {
  const page = await listPage(which, user, PAGE, after);
  return { items: page.userIds.map((userId) => ({ userId })), next: page.lastSortKey };
}

async function controls(kind: 'mute' | 'block', user: string, after?: string): Promise<SectionPage> {
  const page = await controlPage(kind, user, PAGE, after);
  return { items: page.targets.map(controlEntry), next: page.more ? page.targets.at(-1) : undefined };
}

/** What a section's key looks like: a cursor whose key another section (or nobody) made is refused. */
const keyShapes: Record<Section, (k: string) => boolean> = {
  activities: (k) => parseRangeKey(k) !== undefined,
  following: (k) => /^\d{19}#./s.test(k),
  followers: (k) => /^\d{19}#./s.test(k),
  reactions: (k) => isLedgerKey('reaction', k),
  comments: (k) => isLedgerKey('comment', k),
  notifications: (k) => orderSkOfCursor(k.slice(ORDER_PREFIX.length)) === k,
  mutes: (k) => k.length > 0,
  blocks: (k) => k.length > 0,
};

const encode = (p: Position) => Buffer.from(JSON.stringify(p), 'utf8').toString('base64url');
function decode(cursor: string): Position {
  try {
    const p = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Position;
    const validPosition = Number.isInteger(p.s) && p.s >= 0 && p.s < SECTIONS.length;
    const validKey = p.k === undefined || (typeof p.k === 'string' && validPosition && keyShapes[SECTIONS[p.s]!](p.k));
    if (validPosition && validKey && encode(p) === cursor) return p;
  } catch {
    /* fall through */
  }
  throw invalidCursor();
}

export type ExportPart = { userId: string; profile: unknown; activityWindow: unknown; next: string | null } & Record<Section, unknown[]>;

export async function exportUser(user: string, cursor?: string): Promise<ExportPart> {
  let pos: Position = cursor === undefined ? { s: 0 } : decode(cursor);
  const part = Object.fromEntries(SECTIONS.map((s) => [s, [] as unknown[]])) as Record<Section, unknown[]>;
  const first = cursor === undefined;
  const [profile, activityWindow] = first ? await Promise.all([profileOf(user), windowOf(user)]) : [null, null];
  let bytes = 0;
  while (pos.s < SECTIONS.length && bytes < PART_BYTES) {
    const section = SECTIONS[pos.s]!;
    const page = await readers[section](user, pos.k);
    part[section].push(...page.items);
    bytes += JSON.stringify(page.items).length;
    pos = page.next === undefined ? { s: pos.s + 1 } : { s: pos.s, k: page.next };
  }
  return { userId: user, profile, ...part, activityWindow, next: pos.s < SECTIONS.length ? encode(pos) : null };
}

async function windowOf(user: string) {
  const { cfg, segments } = { cfg: windowSetting(), segments: setting('ACTIVITY_SEGMENTS') };
  return readActivityWindow(user, Date.now(), cfg.buckets, cfg, segments);
}

