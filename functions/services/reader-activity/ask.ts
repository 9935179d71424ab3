/**
 * What a home-feed read (or a realtime connect) does about its reader's activity: nothing, while
 * the bound it already carries has more than half a window left — the common case, and free: the
 * bound rides the feed's head item, which the first page reads anyway. Otherwise it queues one
 * job (stamp.ts): a stamp when copies stopped (the bound passed), a restamp, spread out on the
 * background lane, when nothing is missing — for a reader never stamped, only in their turn
 * (model/reader-activity.ts firstAskOpen). The read itself writes nothing.
 */
import { setting } from '../../../lib/defs/config.js';
import { firstAskOpen, mayAskAgain, missingSince, restampDelaySeconds, stampBound, stampDue } from '../../model/reader-activity.js';
import { nowTicks } from '../../platform/clock.js';
import { perInstance } from '../../platform/instance-scope.js';
import { logger } from '../../platform/logger.js';
import { readHead } from '../../stores/feed-store.js';
import { enqueueJob } from '../jobs/bus.js';
import { activeWindowTicks } from './window.js';

/**
 * Readers this instance asked for recently, and when (ms): a cache across invocations (never state
 * of one), so a reader paging through their feed queues one job, not one per page; how long an ask
 * holds scales with the window (model/reader-activity.ts askAgainMs). Bounded; a miss only costs
 * one more job, which finds the bound raised and stops. One per instance, locally too.
 */
const askedBy = perInstance(() => new Map<string, number>());

export async function askStampIfDue(reader: string, headUntil: bigint | undefined, nowTicks: bigint): Promise<void> {
  const window = activeWindowTicks();
  if (!stampDue(headUntil, nowTicks, window)) return;
  const nowMs = Number(nowTicks / 1_000_000n);
  // Never stamped: nothing can be missing, so a first ask waits for the reader's turn (a cohort's first reads, thinned).
  if (headUntil === undefined && !firstAskOpen(reader, nowMs, setting('STAMP_SPREAD'), window)) return;
  const asked = askedBy();
  if (!mayAskAgain(asked.get(reader), nowMs, window)) return;
  if (asked.size > 10_000) asked.clear();
  asked.set(reader, nowMs);
  const until = stampBound(nowTicks, window);
  const since = missingSince(headUntil, nowTicks);
  const bound = until === undefined ? {} : { until: String(until) };
  // Something missing: a stamp, at once (followup: the reader waits for their copies). Nothing
  // missing: a restamp, spread out (background: nobody waits on it).
  const sent =
    since === undefined
      ? enqueueJob({ kind: 'restamp', reader, ...bound }, restampDelaySeconds(reader, setting('STAMP_SPREAD'), window))
      : enqueueJob({ kind: 'stamp', reader, ...bound, since: String(since) });
  // The read is served either way (a returning reader's page is merged): a failed send is asked again.
  await sent.catch((error: unknown) => {
    asked.delete(reader);
    logger.warn('could not queue a stamp job', { error: error as Error, reader });
  });
}

/**
 * A realtime connection counts as reading (its user sees new posts as they come): one GetItem of the
 * head for the bound, which the connect does not otherwise read. Nothing with `off`.
 */
export async function askStampOnConnect(reader: string): Promise<void> {
  if (activeWindowTicks() === undefined) return;
  const head = await readHead(reader);
  await askStampIfDue(reader, head.activeUntil, nowTicks());
}
