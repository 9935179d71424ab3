/**
 * `subscribe`: the realtime channel (docs/realtime.md). Opens the WebSocket GET /realtime names,
 * delivers `feed.item`, `feed.update`, `feed.remove` and `notification` messages, reconnects with capped
 * exponential backoff, and after every (re)connect catches up so that nothing is missed:
 *   1. `GET /feed?since=<newest key held>` until a page is not full — new posts, pulled authors' included;
 *   2. `GET /realtime/missed?after=<seq>&until=<oldest key held>` — copies written while away,
 *      a late fan-out's copy below the newest key included (its rk is its post's, `since` misses it).
 * `seq` is the largest `feed.item` seq seen (or GET /realtime's clock), minus CATCH_UP_MARGIN_MS:
 * pushes from different workers may arrive out of order. Items are delivered once per id; an edit
 * (a `feed.update`, or a catch-up's copy at a higher `version`) goes to `onUpdate`, once per version,
 * never an older one after a newer.
 */
import type { Activity } from './client.js';
import type { TickfeedClient } from './client.js';

export type RealtimeMessage =
  | { type: 'feed.item'; item: Activity; seq: string }
  | { type: 'feed.update'; item: Activity; seq: string }
  | { type: 'feed.remove'; id: string }
  | { type: 'notification'; unseen: number; unread: number };

/** The WebSocket constructor: the global one in browsers and Node ≥ 22; pass `ws`'s in Node 20. */
export type WebSocketLike = new (url: string) => {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(code?: number): void;
};

export interface SubscribeOptions {
  onItem?: (item: Activity) => void;
  /** An activity the feed holds was edited: the activity as it now is (same id and position, a higher `version`). */
  onUpdate?: (item: Activity) => void;
  onRemove?: (id: string) => void;
  onNotification?: (counts: { unseen: number; unread: number }) => void;
  /** Called on each open (`caughtUp` after its catch-up) and close, for status displays. */
  onStatus?: (status: 'open' | 'caughtUp' | 'closed') => void;
  /** The range the app already shows (range keys of its newest and oldest item), so the catch-up covers it. */
  newest?: string;
  oldest?: string;
  /** Ids the app already shows: never delivered again. */
  seen?: Iterable<string>;
  WebSocket?: WebSocketLike;
  /** Waits before reconnect attempt `n` (default: 0.5 s · 2^n, capped at 30 s, with full jitter). */
  backoff?: (attempt: number) => Promise<void>;
}

export interface Subscription {
  close(): void;
}

/** How far before the largest seq seen the catch-up starts (a lane worker's timeout bounds a push's delay). */
export const CATCH_UP_MARGIN_MS = 60_000;
const NS_PER_MS = 1_000_000n;

const defaultBackoff = (attempt: number) => new Promise<void>((r) => setTimeout(r, Math.random() * Math.min(30_000, 500 * 2 ** attempt)));

/** Smaller range key = newer. */
const newer = (a: string, b: string) => (BigInt(a) < BigInt(b) ? a : b);
const older = (a: string, b: string) => (BigInt(a) > BigInt(b) ? a : b);

export function subscribe(client: TickfeedClient, token: () => Promise<string>, opts: SubscribeOptions): Subscription {
  const found = opts.WebSocket ?? (globalThis as unknown as { WebSocket?: WebSocketLike }).WebSocket;
  if (!found) throw new Error('no WebSocket: pass `WebSocket` (e.g. the ws package) in Node 20');
  const WS: WebSocketLike = found;
  const seen = new Set(opts.seen ?? []);
  /** The newest version delivered of each id (absent: as first delivered). */
  const versions = new Map<string, number>();
  let newest = opts.newest;
  let oldest = opts.oldest;
  let seq: bigint | undefined;
  let closed = false;
  let socket: InstanceType<WebSocketLike> | undefined;
  let attempt = 0;

  const update = (item: Activity) => {
    if (item.version <= (versions.get(item.id) ?? 1)) return;
    versions.set(item.id, item.version);
    opts.onUpdate?.(item);
  };

  const deliver = (item: Activity) => {
    newest = newest === undefined ? item.rangeKey : newer(newest, item.rangeKey);
    oldest = oldest === undefined ? item.rangeKey : older(oldest, item.rangeKey);
    if (seen.has(item.id)) return update(item);
    seen.add(item.id);
    versions.set(item.id, item.version);
    opts.onItem?.(item);
  };

  async function catchUp(): Promise<void> {
    // 1. Newer than the newest held, page by page (closest to the cursor first).
    for (let more = newest !== undefined; more;) {
      const { data } = await client.GET('/feed', { params: { query: { since: newest!, limit: 100 } } });
      if (!data) break;
      [...data.items].reverse().forEach(deliver);
      more = data.items.length === 100;
    }
    // 2. Copies written while away, anywhere down to the oldest held.
    if (oldest === undefined || seq === undefined) return;
    const after = seq - BigInt(CATCH_UP_MARGIN_MS) * NS_PER_MS;
    let before: string | undefined;
    do {
      const { data } = await client.GET('/realtime/missed', {
        params: { query: { after: String(after > 0n ? after : 0n), until: oldest, ...(before ? { before } : {}) } },
      });
      if (!data) break;
      data.items.forEach(deliver);
      before = data.lastRangeKey ?? undefined;
    } while (before);
  }

  async function connect(): Promise<void> {
    const { data } = await client.GET('/realtime');
    if (!data) throw new Error('GET /realtime failed');
    if (seq === undefined) seq = BigInt(data.seq);
    if (closed) return;
    const ws = new WS(`${data.url}?token=${encodeURIComponent(await token())}`);
    socket = ws;
    ws.onmessage = (ev) => {
      const m = JSON.parse(String(ev.data)) as RealtimeMessage;
      if (m.type === 'feed.item' || m.type === 'feed.update') {
        const s = BigInt(m.seq);
        if (seq === undefined || s > seq) seq = s;
        if (m.type === 'feed.item') deliver(m.item);
        else update(m.item);
      } else if (m.type === 'feed.remove') {
        seen.delete(m.id);
        versions.delete(m.id);
        opts.onRemove?.(m.id);
      } else if (m.type === 'notification') opts.onNotification?.({ unseen: m.unseen, unread: m.unread });
    };
    ws.onopen = () => {
      attempt = 0;
      opts.onStatus?.('open');
      catchUp().then(
        () => opts.onStatus?.('caughtUp'),
        () => ws.close(), // retried by the reconnect
      );
    };
    ws.onerror = () => undefined; // a close follows
    ws.onclose = () => {
      opts.onStatus?.('closed');
      if (!closed) void reconnect();
    };
  }

  async function reconnect(): Promise<void> {
    while (!closed) {
      await (opts.backoff ?? defaultBackoff)(attempt++);
      if (closed) return;
      try {
        return await connect();
      } catch {
        // GET /realtime failed: try again after the next backoff
      }
    }
  }

  connect().catch(() => void reconnect());
  return {
    close() {
      closed = true;
      socket?.close(1000);
    },
  };
}
