/**
 * Feedback on a ranked feed (POST /feeds/{feedId}/interactions): `seen` marks a post seen (the
 * `seen` variable, and `dropSeen`); `less` / `more` halve / double the reader's weight of the
 * post's author (bounded to [1/16, 16]; back at 1 it is forgotten), which multiplies every score
 * of that author's posts in every ranked feed the reader reads (rank.ts). Marks are the reader's
 * own, one item (model/ranked-feed.ts), kept bounded: the newest MAX_SEEN seen ids, the
 * MAX_WEIGHTS authors changed last. They apply from the next first page (a snapshot is not re-ranked).
 * A generator feed that asks for interactions also gets them, after they are recorded: POST to its
 * URL with a token naming the reader, unless its breaker is not closed. That forward is best effort (at most 2 s) —
 * a generator that fails it loses nothing of the reader's (the 204 is about tickfeed's own record).
 */
import { setting } from '../../../lib/defs/config.js';
import { parseActivityId } from '../../model/activity-id.js';
import { ValidationError } from '../../model/domain-errors.js';
import { gateOf } from '../../model/feed-generator.js';
import { MAX_SEEN, MAX_WEIGHTS } from '../../model/ranked-feed.js';
import { logger } from '../../platform/logger.js';
import { AGAIN, RETRY, retrying } from '../../platform/retry.js';
import { getReaderMarks, putReaderMarks, type ReaderMarks } from '../../stores/ranked-feed-store.js';
import { readableDefinition, type Requester } from './definitions.js';
import { type Generator, GeneratorFailure, postInteractions } from './generator-call.js';
import { readerToken } from './generator-token.js';

export type InteractionEvent = 'seen' | 'less' | 'more';

const WEIGHT_BOUNDS = [1 / 16, 16] as const;

/** The marks after the events (pure). */
export function applyInteractions(marks: ReaderMarks, events: readonly { activityId: string; author: string; event: InteractionEvent }[]): ReaderMarks {
  const seen = new Set(marks.seen);
  const weights = new Map(Object.entries(marks.weights));
  for (const e of events) {
    if (e.event === 'seen') {
      seen.delete(e.activityId); // re-added: it becomes the newest
      seen.add(e.activityId);
      continue;
    }
    const w = Math.min(WEIGHT_BOUNDS[1], Math.max(WEIGHT_BOUNDS[0], (weights.get(e.author) ?? 1) * (e.event === 'less' ? 0.5 : 2)));
    weights.delete(e.author);
    if (w !== 1) weights.set(e.author, w);
  }
  return { seen: [...seen].slice(-MAX_SEEN), weights: Object.fromEntries([...weights].slice(-MAX_WEIGHTS)), v: marks.v };
}

export async function recordInteractions(who: Requester, feedId: string, items: readonly { activityId: string; event: InteractionEvent }[]): Promise<void> {
  const events = items.map((item, i) => {
    const key = parseActivityId(item.activityId);
    if (key === undefined) throw new ValidationError('Not an activity id.', [{ field: `body.items.${i}.activityId`, message: 'an `id` of an activity' }]);
    return { ...item, author: key.actor };
  });
  const stored = await readableDefinition(feedId, who);
  await retrying(`interactions of ${who.userId}`, RETRY.request, async () =>
    (await putReaderMarks(who.userId, applyInteractions(await getReaderMarks(who.userId), events))) === 'done' ? undefined : AGAIN,
  );
  const generator = (JSON.parse(stored.body) as { generator?: Generator }).generator;
  if (generator?.interactions !== true || stored.generatorSecret === undefined) return;
  if (gateOf(stored.breaker, Date.now()) !== 'closed') return; // a failing generator is not called
  const token = await readerToken(stored.generatorSecret, feedId, who.userId, Date.now());
  const took = await postInteractions(generator, items, token, setting('FEED_GENERATOR_LOOPBACK')).catch((e: unknown) => {
    if (e instanceof GeneratorFailure) return false;
    throw e;
  });
  if (!took) logger.warn('feed generator refused interactions', { feedId });
}
