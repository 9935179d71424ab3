/**
 * The console's realtime channel (docs/realtime.md): one `subscribe` of @tickfeed/client per page,
 * opened once the view has drawn. The unseen badge takes every `notification`; a view that shows
 * the home feed hands its list over (`showFeed`) and gets its `feed.item` / `feed.update` / `feed.remove` pushes —
 * and the catch-up after every (re)connect starts from what that list shows, so nothing posted
 * while the page loaded or the socket was down is missed.
 */
import { type Activity, subscribe, type Subscription } from '@tickfeed/client';
import type { Session } from './session.js';

export interface LiveFeed {
  insert(item: Activity): unknown;
  update(item: Activity): unknown;
  remove(id: string): unknown;
  shown(): { newest?: string; oldest?: string; ids: readonly string[] };
  /** After a catch-up (e.g. to read a first page when nothing was shown to catch up from). */
  caughtUp?(): Promise<unknown>;
}

export type Counts = { unseen: number; unread: number };
export type LiveStatus = 'connecting' | 'open' | 'caughtUp' | 'closed';

/** What views may ask of the channel; they register while they render, before it opens. */
export interface Live {
  showFeed(feed: LiveFeed): void;
  onCounts(listener: (counts: Counts) => void): void;
}

export interface LiveChannel extends Live {
  start(session: Session, on: { counts(counts: Counts): void; status(status: LiveStatus): void }): Subscription;
}

export function createLive(): LiveChannel {
  let feed: LiveFeed | undefined;
  const countListeners: ((counts: Counts) => void)[] = [];
  return {
    showFeed: (f) => void (feed = f),
    onCounts: (listener) => void countListeners.push(listener),
    start(session, on) {
      const shown = feed?.shown();
      on.status('connecting');
      return subscribe(session.client, session.token, {
        newest: shown?.newest,
        oldest: shown?.oldest,
        seen: shown?.ids,
        onItem: (item) => feed?.insert(item),
        onUpdate: (item) => feed?.update(item),
        onRemove: (id) => feed?.remove(id),
        onNotification: (counts) => {
          on.counts(counts);
          for (const listener of countListeners) listener(counts);
        },
        onStatus: (status) => {
          on.status(status);
          if (status === 'caughtUp') feed?.caughtUp?.().catch((error: unknown) => console.warn('feed catch-up failed:', error));
        },
      });
    },
  };
}
